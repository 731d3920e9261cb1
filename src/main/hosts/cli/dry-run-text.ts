/**
 * `quire sync --dry-run`: what a cycle would do, per space and page, said for people (and as
 * JSON for scripts). Every path and title the server sent is made terminal-safe.
 */
import { type CycleReport, describeUnreadable } from '../../core/sync';
import { plural } from '../../../shared/plural';
import { safeField } from './terminal-text';

export function describeDryRun(report: CycleReport): string {
  const lines: string[] = [];
  for (const s of report.spaces) {
    const d = s.dryRun;
    lines.push(`${safeField(s.title)} (${safeField(s.folder)}):`);
    if (s.missingFolder) {
      lines.push('  its folder is missing: nothing would be synced');
      continue;
    }
    if (!d) {
      lines.push(`  could not plan: ${safeField(s.error ?? 'no plan')}`);
      continue;
    }
    const section = (label: string, paths: readonly string[]) => {
      for (const p of paths) lines.push(`  ${label.padEnd(14)} ${safeField(p)}`);
    };
    section('pull new', d.pull.new);
    section('pull changed', d.pull.changed);
    for (const m of d.pull.moved) lines.push(`  ${'pull moved'.padEnd(14)} ${safeField(m.from)} -> ${safeField(m.to)}`);
    section('pull deleted', d.pull.deleted);
    section('push insert', d.push.insert);
    section('push update', d.push.update);
    section('push move', d.push.move);
    section('push delete', d.push.delete);
    section('push file', d.push.files);
    for (const c of d.conflicts) lines.push(`  ${'conflict'.padEnd(14)} ${safeField(c.path)} (${c.kind})`);
    // In the words the sync says them in.
    for (const u of s.unreadable) lines.push(`  ${'left alone'.padEnd(14)} ${safeField(describeUnreadable(u))}`);
    for (const h of d.held) lines.push(`  ${'held'.padEnd(14)} ${safeField(h.says)}`);
    if (d.massDelete) lines.push(`  STOPPED: this cycle would delete ${d.massDelete.localDeletes + d.massDelete.remoteDeletes} of ${d.massDelete.pages} pages`);
    const counted = d.pull.new.length + d.pull.changed.length + d.pull.moved.length + d.pull.deleted.length;
    const pushed = d.push.insert.length + d.push.update.length + d.push.move.length + d.push.delete.length + d.push.files.length;
    if (counted + pushed + d.conflicts.length + d.held.length + s.unreadable.length === 0 && !d.massDelete) lines.push('  nothing to do');
  }
  lines.push(`Dry run: nothing was written, nothing was sent (${plural(report.requests, 'read request')}).`);
  return lines.join('\n');
}

export function dryRunJson(report: CycleReport): unknown {
  return {
    dryRun: true,
    requests: report.requests,
    spaces: report.spaces.map((s) => ({
      spaceId: s.spaceId,
      title: s.title,
      folder: s.folder,
      missingFolder: s.missingFolder ?? false,
      error: s.error ?? null,
      unreadable: s.unreadable,
      ...s.dryRun,
    })),
  };
}
