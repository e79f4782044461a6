/**
 * Cell-adjacency relations, the ICDAR 2013 table-competition structure measure (Göbel et al. 2013): for each
 * non-empty cell, its nearest non-empty neighbour to the right (same row) and below (same column), as
 * (text, neighbour text, direction) tuples. Precision/recall/F1 compare the multisets of tuples of a predicted table
 * and the true one; texts are compared lower-cased with all whitespace removed, so line breaks inside cells and
 * spacing differences do not count.
 *
 * Spanning cells: the scan starts just past the span (right of the last spanned column, below the last spanned row),
 * on the cell's first row / first column.
 */
import { cellAt, type TableGrid } from '../tables/grid.js';

export type Relation = string; // `${from}\u0000${to}\u0000${'right' | 'down'}`

const normaliseCellText = (text: string): string => text.toLowerCase().replace(/\s+/g, '');

export function adjacencyRelations(grid: TableGrid): Relation[] {
  const relations: Relation[] = [];
  for (const cell of grid.cells) {
    const from = normaliseCellText(cell.text);
    if (!from) continue;
    for (let c = cell.col + cell.colspan; c < grid.colCount; c++) {
      const next = cellAt(grid, cell.row, c);
      if (next && next !== cell && normaliseCellText(next.text)) {
        relations.push(`${from}\u0000${normaliseCellText(next.text)}\u0000right`);
        break;
      }
    }
    for (let r = cell.row + cell.rowspan; r < grid.rowCount; r++) {
      const next = cellAt(grid, r, cell.col);
      if (next && next !== cell && normaliseCellText(next.text)) {
        relations.push(`${from}\u0000${normaliseCellText(next.text)}\u0000down`);
        break;
      }
    }
  }
  return relations;
}

export interface RelationScore {
  truePositives: number;
  predicted: number;
  expected: number;
  precision: number;
  recall: number;
  f1: number;
}

export function compareRelations(predicted: Relation[], expected: Relation[]): RelationScore {
  const remaining = new Map<Relation, number>();
  for (const r of expected) remaining.set(r, (remaining.get(r) ?? 0) + 1);
  let truePositives = 0;
  for (const r of predicted) {
    const n = remaining.get(r) ?? 0;
    if (n > 0) {
      truePositives++;
      remaining.set(r, n - 1);
    }
  }
  const precision = predicted.length === 0 ? 0 : truePositives / predicted.length;
  const recall = expected.length === 0 ? 0 : truePositives / expected.length;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { truePositives, predicted: predicted.length, expected: expected.length, precision, recall, f1 };
}

export function tableNeighbourScore(predicted: TableGrid, expected: TableGrid): RelationScore {
  return compareRelations(adjacencyRelations(predicted), adjacencyRelations(expected));
}
