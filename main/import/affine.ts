/**
 * PDF affine transforms [a, b, c, d, e, f] (x' = a·x + c·y + e, y' = b·x + d·y + f), as pdf.js hands them out.
 */
export type Matrix = [number, number, number, number, number, number];

/** m × n: apply n first, then m (PDF's order for concatenating a CTM onto a viewport transform). */
export function multiply(m: readonly number[], n: readonly number[]): Matrix {
  return [
    m[0]! * n[0]! + m[2]! * n[1]!,
    m[1]! * n[0]! + m[3]! * n[1]!,
    m[0]! * n[2]! + m[2]! * n[3]!,
    m[1]! * n[2]! + m[3]! * n[3]!,
    m[0]! * n[4]! + m[2]! * n[5]! + m[4]!,
    m[1]! * n[4]! + m[3]! * n[5]! + m[5]!,
  ];
}
