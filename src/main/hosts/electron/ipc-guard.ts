import { clipText } from '../../../shared/clip-text';
import { dispatch, IPC_PREFIX, isRequestName, type ContractService, type Outcome } from '../../../shared/contract';

/** The origin the window's pages are served from (see protocol.ts). */
export const APP_ORIGIN = 'app://quire';

/** What main knows about who sent an IPC message. */
export interface SenderInfo {
  /** URL of the frame that sent the message. */
  frameUrl: string | null;
  /** Whether that frame is the top frame of its window. */
  isMainFrame: boolean;
  /** Whether the sending web contents belongs to our own window. */
  isOwnWindow: boolean;
}

/** Why a sender may not use the contract, or null when it may. */
export function senderRejection(sender: SenderInfo, appOrigin = APP_ORIGIN): string | null {
  if (!sender.isOwnWindow) return 'sent from a window that is not Quire’s';
  if (!sender.isMainFrame) return 'sent from a sub-frame';
  if (!sender.frameUrl) return 'sender has no URL';
  let origin: string;
  try {
    const url = new URL(sender.frameUrl);
    origin = url.protocol === 'app:' ? `app://${url.host}` : url.origin;
  } catch {
    return `sender URL ${JSON.stringify(clipText(sender.frameUrl, 101))} is not a URL`;
  }
  if (origin !== appOrigin) return `sender origin ${origin} is not ${appOrigin}`;
  return null;
}

/**
 * Handles one `quire:` IPC message: checks the channel and the sender, then
 * validates the payload and runs the request. Every refusal is logged with
 * its reason and answered as an error outcome, never thrown across IPC.
 */
export async function handleIpcMessage(
  service: ContractService,
  channel: string,
  payload: unknown,
  sender: SenderInfo,
  log: (line: string) => void,
  appOrigin = APP_ORIGIN,
): Promise<Outcome<unknown>> {
  const refuse = (reason: string): Outcome<unknown> => {
    log(`ipc: refused ${clipText(channel, 81)}: ${reason}`);
    return { ok: false, error: { code: 'invalid-request', message: `Quire refused this request: ${reason}.` } };
  };
  if (!channel.startsWith(IPC_PREFIX)) return refuse('channel is not a quire: channel');
  const name = channel.slice(IPC_PREFIX.length);
  if (!isRequestName(name)) return refuse('unknown request');
  const rejection = senderRejection(sender, appOrigin);
  if (rejection) return refuse(rejection);
  const outcome = await dispatch(service, name, payload);
  if (!outcome.ok && outcome.error.code === 'invalid-request') log(`ipc: refused ${channel}: ${outcome.error.message}`);
  return outcome;
}
