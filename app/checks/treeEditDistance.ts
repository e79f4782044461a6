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
  /** parent[i] = post-order index of node i's parent, -1 for the root. */
  parent: Int32Array;
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
  const parent = new Int32Array(nodes.length).fill(-1);
  const position = new Map<OrderedTree, number>(nodes.map((node, i) => [node, i]));
  nodes.forEach((node, i) => node.children.forEach((child) => (parent[position.get(child)!] = i)));
  return { nodes, parent, leftmost, keyRoots };
}

export function treeEditDistance<T extends OrderedTree>(a: T, b: T, renameCost: (x: T, y: T) => number): number {
  const A = index(a);
  const B = index(b);
  const n = A.nodes.length;
  const m = B.nodes.length;
  const leftA = Int32Array.from(A.leftmost);
  const leftB = Int32Array.from(B.leftmost);
  const treeDistance = new Float64Array(n * m); // [n, m]
  // Rename costs are needed many times per pair; cache them. NaN = not computed yet.
  const renameCache = new Float64Array(n * m).fill(Number.NaN);
  const rename = (i: number, j: number): number => {
    let cost = renameCache[i * m + j]!;
    if (cost !== cost) {
      cost = renameCost(A.nodes[i]!, B.nodes[j]!);
      renameCache[i * m + j] = cost;
    }
    return cost;
  };
  // Distances involving a single leaf have a closed form: TD(leaf u, subtree S) = |S| − 1 + min(2, min over k in S of
  // rename(u, k)): map u to the cheapest node and insert the rest, or delete u and insert all of S.
  // Filling them directly lets the loop below skip every key-root pair in which either key root is a leaf — for
  // tables (cells are leaves) that is most of the pairs.
  const sizeA = Int32Array.from(A.nodes, (_, i) => i - leftA[i]! + 1);
  const sizeB = Int32Array.from(B.nodes, (_, j) => j - leftB[j]! + 1);
  const minRename = new Float64Array(Math.max(n, m));
  for (let u = 0; u < n; u++) {
    if (sizeA[u] !== 1) continue;
    minRename.fill(Number.POSITIVE_INFINITY, 0, m);
    for (let v = 0; v < m; v++) {
      const own = rename(u, v);
      const best = own < minRename[v]! ? own : minRename[v]!;
      treeDistance[u * m + v] = sizeB[v]! - 1 + (best < 2 ? best : 2);
      const p = B.parent[v]!;
      if (p >= 0 && best < minRename[p]!) minRename[p] = best;
    }
  }
  for (let v = 0; v < m; v++) {
    if (sizeB[v] !== 1) continue;
    minRename.fill(Number.POSITIVE_INFINITY, 0, n);
    for (let u = 0; u < n; u++) {
      const own = rename(u, v);
      const best = own < minRename[u]! ? own : minRename[u]!;
      treeDistance[u * m + v] = sizeA[u]! - 1 + (best < 2 ? best : 2);
      const p = A.parent[u]!;
      if (p >= 0 && best < minRename[p]!) minRename[p] = best;
    }
  }
  const keyRootsA = A.keyRoots.filter((i) => sizeA[i]! > 1);
  const keyRootsB = B.keyRoots.filter((j) => sizeB[j]! > 1);
  const forest = new Float64Array((n + 1) * (m + 1)); // scratch [rows, cols] per key-root pair
  // Hot loop (tens of millions of cells for tables with thousands of cells): typed arrays, no Math.min, no closures.
  for (const i of keyRootsA) {
    const li = leftA[i]!;
    const rows = i - li + 2;
    for (const j of keyRootsB) {
      const lj = leftB[j]!;
      const cols = j - lj + 2;
      forest[0] = 0;
      for (let x = 1; x < rows; x++) forest[x * cols] = x;
      for (let y = 1; y < cols; y++) forest[y] = y;
      for (let x = 1; x < rows; x++) {
        const di = li + x - 1;
        const ldi = leftA[di]!;
        const rowBase = x * cols;
        const prevRowBase = rowBase - cols;
        const onLeftPathA = ldi === li;
        const px = (ldi - li) * cols;
        const cacheRow = di * m;
        for (let y = 1; y < cols; y++) {
          const dj = lj + y - 1;
          const ldj = leftB[dj]!;
          let best = forest[prevRowBase + y]! + 1; // delete di
          const insert = forest[rowBase + y - 1]! + 1; // insert dj
          if (insert < best) best = insert;
          if (onLeftPathA && ldj === lj) {
            let renameIJ = renameCache[cacheRow + dj]!;
            if (renameIJ !== renameIJ) renameIJ = rename(di, dj);
            const match = forest[prevRowBase + y - 1]! + renameIJ;
            if (match < best) best = match;
            forest[rowBase + y] = best;
            treeDistance[cacheRow + dj] = best;
          } else {
            const match = forest[px + (ldj - lj)]! + treeDistance[cacheRow + dj]!;
            forest[rowBase + y] = match < best ? match : best;
          }
        }
      }
    }
  }
  return treeDistance[(n - 1) * m + (m - 1)]!;
}
