/**
 * A bench:ui CPU profile read by phase of a discrete input (a key that moves the review screen): the synchronous
 * work React does for it (render, commit and the effects a discrete update flushes at once, in the input's own task)
 * with what inside it the history entry, Monaco's `setValue`, requests' `fetch` and rendering take; React's renders in
 * later tasks; Monaco's frame. Function names are React's and Monaco's own, so the build must be unminified
 * (`npx vite build --minify false`). Wall time of the main thread per sample: on busy cores a phase's figure includes
 * the time its thread waited for a core.
 */
export interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
export interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

/** [phase, the stack must contain one of these, and (for a part) also lie inside this phase]. */
const phases: { label: string; anyOf: string[]; within?: string }[] = [
  { label: 'the input\'s synchronous work (render, commit, effects)', anyOf: ['processRootScheduleInMicrotask'] },
  { label: '— React render', anyOf: ['renderRootSync'], within: 'processRootScheduleInMicrotask' },
  { label: '— history entry (pushState / replaceState)', anyOf: ['pushState', 'replaceState'], within: 'processRootScheduleInMicrotask' },
  { label: '— Monaco setValue', anyOf: ['setValue'], within: 'processRootScheduleInMicrotask' },
  { label: '— fetch (requests started)', anyOf: ['fetch'], within: 'processRootScheduleInMicrotask' },
  { label: 'React work in later tasks', anyOf: ['performWorkUntilDeadline'] },
  { label: 'Monaco frame', anyOf: ['animationFrameRunner'] },
];

/** Milliseconds per sample in each phase. */
export function phaseTimes(profile: Profile, samples: number): [string, number][] {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const nameOf = new Map(profile.nodes.map((node) => [node.id, node.callFrame.functionName]));
  const totals = phases.map(() => 0);
  profile.samples.forEach((id, i) => {
    const stack = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.add(nameOf.get(at)!);
    phases.forEach((phase, p) => {
      if (phase.anyOf.some((name) => stack.has(name)) && (!phase.within || stack.has(phase.within))) totals[p]! += profile.timeDeltas[i]! / 1000;
    });
  });
  return phases.map((phase, p) => [phase.label, totals[p]! / samples]);
}
