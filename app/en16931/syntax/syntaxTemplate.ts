/** One template of the schematron pattern holding the syntax binding rules, as the XSLT states it. */
export interface SyntaxTemplate {
  match: string;
  priority: number;
  asserts: { id: string; flag: string; test: string; message: string }[];
}
