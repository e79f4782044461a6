/** A forward migration: the statements that take a project from `version - 1` to `version`. */
export interface Migration {
  version: number;
  name: string;
  statements: string[];
}
