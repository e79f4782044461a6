/**
 * Ordered tree edit distance (Zhang & Shasha, 1989) with unit insert/delete costs and a caller-supplied rename cost.
 * Exact, like APTED (which upstream TEDS uses); APTED is only faster on deep, unbalanced trees, and table trees are
 * four or five levels deep.
 *
 * Cost: O(n1 · n2 · min(depth1, leaves1) · min(depth2, leaves2)) time, O(n1 · n2) memory.
 */
export interface OrderedTree {
  children: OrderedTree[];
}

interface Indexed<T extends OrderedTree> {
  /** Nodes in post-order. */
  nodes: T[];
  /** leftmost[i] = post-order index of the leftmost leaf descendant of node i. */
  leftmost: number[];
  /** Key roots: the highest node of each distinct leftmost leaf, ascending. */
  keyRoots: number[];
}

function index<T extends OrderedTree>(root: T): Indexed<T> {
  const nodes: T[] = [];
  const leftmost: number[] = [];
  // Iterative post-order so very wide or deep input cannot overflow the stack.
  const stack: { node: T; childIndex: number; firstLeaf: number }[] = [{ node: root, childIndex: 0, firstLeaf: -1 }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.childIndex < top.node.children.length) {
      const child = top.node.children[top.childIndex++] as T;
      stack.push({ node: child, childIndex: 0, firstLeaf: -1 });
      continue;
    }
    stack.pop();
    const i = nodes.length;
    nodes.push(top.node);
    const l = top.firstLeaf >= 0 ? top.firstLeaf : i;
    leftmost.push(l);
    const parent = stack[stack.length - 1];
    if (parent && parent.firstLeaf < 0) parent.firstLeaf = l;
  }
  const highestWithLeaf = new Map<number, number>();
  leftmost.forEach((l, i) => highestWithLeaf.set(l, i));
  const keyRoots = [...highestWithLeaf.values()].sort((a, b) => a - b);
  return { nodes, leftmost, keyRoots };
}

export function treeEditDistance<T extends OrderedTree>(a: T, b: T, renameCost: (x: T, y: T) => number): number {
  const A = index(a);
  const B = index(b);
  const n = A.nodes.length;
  const m = B.nodes.length;
  const treeDistance = new Float64Array(n * m); // [n, m]
  // Rename costs are needed many times per pair; cache them. NaN = not computed yet.
  const renameCache = new Float64Array(n * m).fill(Number.NaN);
  const rename = (i: number, j: number): number => {
    let cost = renameCache[i * m + j]!;
    if (Number.isNaN(cost)) {
      cost = renameCost(A.nodes[i]!, B.nodes[j]!);
      renameCache[i * m + j] = cost;
    }
    return cost;
  };
  const forest = new Float64Array((n + 1) * (m + 1)); // scratch [rows, cols] per key-root pair
  for (const i of A.keyRoots) {
    for (const j of B.keyRoots) {
      const li = A.leftmost[i]!;
      const lj = B.leftmost[j]!;
      const rows = i - li + 2;
      const cols = j - lj + 2;
      forest[0] = 0;
      for (let x = 1; x < rows; x++) forest[x * cols] = forest[(x - 1) * cols]! + 1;
      for (let y = 1; y < cols; y++) forest[y] = forest[y - 1]! + 1;
      for (let x = 1; x < rows; x++) {
        const di = li + x - 1;
        const ldi = A.leftmost[di]!;
        for (let y = 1; y < cols; y++) {
          const dj = lj + y - 1;
          const ldj = B.leftmost[dj]!;
          const remove = forest[(x - 1) * cols + y]! + 1;
          const insert = forest[x * cols + y - 1]! + 1;
          if (ldi === li && ldj === lj) {
            const value = Math.min(remove, insert, forest[(x - 1) * cols + y - 1]! + rename(di, dj));
            forest[x * cols + y] = value;
            treeDistance[di * m + dj] = value;
          } else {
            const px = ldi - li;
            const py = ldj - lj;
            forest[x * cols + y] = Math.min(remove, insert, forest[px * cols + py]! + treeDistance[di * m + dj]!);
          }
        }
      }
    }
  }
  return treeDistance[(n - 1) * m + (m - 1)]!;
}
