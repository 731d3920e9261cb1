/**
 * At most `max` notifications per sliding `windowMs`: a burst of new comments
 * becomes a few notifications, not a wall of them.
 */
export class NotificationLimiter {
  private sent: number[] = [];

  constructor(
    private readonly max = 3,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  allow(): boolean {
    const t = this.now();
    this.sent = this.sent.filter((at) => t - at < this.windowMs);
    if (this.sent.length >= this.max) return false;
    this.sent.push(t);
    return true;
  }
}
