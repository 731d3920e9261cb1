import { QuireError, type ErrorCode, type EventMap, type EventName, type RequestName } from '../../../src/shared/contract';
import { Listeners, type Bridge, type ConnectionState } from '../../../src/renderer/bridge/bridge';

type Answer = { ok: true; value: unknown } | { ok: false; code: ErrorCode; message: string };

/**
 * A bridge the tests script from outside the page: canned answers per request,
 * a log of every request made, and pushed events on demand. Requests without
 * an answer stay pending (like a host that has not replied yet).
 */
export class FakeBridge implements Bridge {
  readonly calls: { name: RequestName; params: unknown }[] = [];
  private readonly answers = new Map<string, Answer>();
  /** Answers for one request with exactly these parameters (JSON), before the per-name answer. */
  private readonly answersFor = new Map<string, Answer>();
  private readonly listeners = new Listeners();
  private state: ConnectionState = 'open';

  get connection(): ConnectionState {
    return this.state;
  }

  respond(name: RequestName, value: unknown): void {
    this.answers.set(name, { ok: true, value });
  }

  /** Answers `name` with `value` only when asked with exactly `params`. */
  respondFor(name: RequestName, params: unknown, value: unknown): void {
    this.answersFor.set(`${name} ${JSON.stringify(params)}`, { ok: true, value });
  }

  fail(name: RequestName, code: ErrorCode, message: string): void {
    this.answers.set(name, { ok: false, code, message });
  }

  emit<E extends EventName>(name: E, payload: EventMap[E]): void {
    this.listeners.emit(name, payload);
  }

  setConnection(state: ConnectionState): void {
    this.state = state;
    this.listeners.emitConnection(state);
  }

  request(name: RequestName, params: unknown): Promise<never> {
    this.calls.push({ name, params: JSON.parse(JSON.stringify(params ?? {})) });
    const answer = this.answersFor.get(`${name} ${JSON.stringify(params ?? {})}`) ?? this.answers.get(name);
    if (!answer) return new Promise<never>(() => undefined);
    return answer.ok ? Promise.resolve(structuredClone(answer.value) as never) : Promise.reject(new QuireError(answer.code, answer.message));
  }

  on<E extends EventName>(name: E, listener: (payload: EventMap[E]) => void): () => void {
    return this.listeners.on(name, listener);
  }

  onConnection(listener: (state: ConnectionState) => void): () => void {
    return this.listeners.onConnection(listener);
  }
}
