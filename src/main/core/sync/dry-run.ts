/** `--dry-run`: what a plan would do, per page, without doing any of it. */
import type { Mirror } from '../mirror';
import { describeNotPushed } from './hold';
import type { Plan } from './plan';
import type { PushHolds } from './push-holds';
import type { DryRunReport } from './report';

/** `holds`: what the sync would hold back (push-holds.ts), said in the sync's words; its pushes are the ones listed. */
export function dryRunOf(plan: Plan, holds: PushHolds, mirror: Pick<Mirror, 'folder'>, spaceId: string): DryRunReport {
  const pathOf = (key: string) => mirror.folder.node(spaceId, key)?.path ?? key.replace(/^new:/, '');
  const out: DryRunReport = {
    pull: { new: [], changed: [], moved: [], deleted: [] },
    push: { insert: [], update: [], move: [], delete: [], files: [] },
    conflicts: plan.conflicts.add.map((c) => ({ path: c.path, kind: c.kind })),
    held: holds.notPushed.map((h) => ({ path: h.path, reason: h.reason, says: describeNotPushed(h) })),
    massDelete: plan.massDelete,
    fetched: plan.needBodies.length,
  };
  for (const op of plan.fileOps) {
    if (op.op === 'write') (op.fresh ? out.pull.new : out.pull.changed).push(op.path);
    else if (op.op === 'move') out.pull.moved.push({ from: op.from, to: op.to });
    else if (op.op === 'delete') out.pull.deleted.push(op.path);
  }
  for (const op of holds.push) {
    if (op.op === 'insert') out.push.insert.push(op.path);
    else if (op.op === 'files') out.push.files.push(...op.assets.map((a) => a.path));
    else if (op.op === 'delete') out.push.delete.push(op.path ?? pathOf(op.id));
    else {
      if (op.text !== null) out.push.update.push(op.path);
      if (op.move || op.rename) out.push.move.push(op.path);
    }
  }
  return out;
}
