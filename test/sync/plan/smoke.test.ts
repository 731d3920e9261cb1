import { describe, expect, it } from 'vitest';
import { isNoop, World, type SimTree } from './world';

const tree: SimTree = [
  { id: 'a', parentId: null, title: 'Home', slug: 'home', body: 'home\n' },
  { id: 'b', parentId: null, title: 'Guide', slug: 'guide', body: 'guide\n' },
  { id: 'c', parentId: 'b', title: 'Install', slug: 'install', body: 'install\n' },
  { id: 'd', parentId: null, title: 'Faq', slug: 'faq', body: 'faq\n' },
];

describe('planner smoke', () => {
  it('lays out a first sync and then has nothing to do', () => {
    const w = World.initial(tree);
    expect([...w.files.keys()].sort()).toEqual(['README.md', 'faq.md', 'guide/README.md', 'guide/install.md']);
    expect(isNoop(w.plan(tree, { full: false }))).toBe(true);
    expect(isNoop(w.plan(tree, { full: true }))).toBe(true);
  });
  it('pushes a local edit, pulls a remote one, follows a remote move', () => {
    const w = World.initial(tree);
    w.files.set('faq.md', `${w.files.get('faq.md')!}\nmore\n`);
    const p = w.plan(tree, { full: false });
    expect(p.push.map((o) => o.op)).toEqual(['update']);
    w.apply(p, tree);
    expect(isNoop(w.plan(tree, { full: false }))).toBe(true);
    const moved = tree.map((x) => (x.id === 'c' ? { ...x, parentId: null, body: 'install 2\n' } : x));
    const q = w.plan(moved, { full: false });
    w.apply(q, moved);
    expect([...w.files.keys()].sort()).toEqual(['README.md', 'faq.md', 'guide.md', 'install.md']);
    expect(isNoop(w.plan(moved, { full: false }))).toBe(true);
    expect(isNoop(w.plan(moved, { full: true }))).toBe(true);
  });
  it('lets its host collect garbage between its steps, and plans the same', () => {
    const w = World.initial(tree);
    w.files.set('faq.md', `${w.files.get('faq.md')!}\nmore\n`);
    const moved = tree.map((x) => (x.id === 'c' ? { ...x, parentId: null, body: 'install 2\n' } : x));
    let calls = 0;
    const plain = w.plan(moved, { full: false });
    const collected = w.plan(moved, { full: false, betweenSteps: () => calls++ });
    expect(collected).toEqual(plain);
    expect(calls).toBeGreaterThanOrEqual(2);
  });
});
