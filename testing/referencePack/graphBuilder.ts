/**
 * A small builder for ONNX graphs: named inputs/outputs, initializers, nodes with attributes, serialised with the
 * protobufjs schema in onnxSchema.ts. Large initializers can go to an external data file (ONNX's 2 GB protobuf limit).
 */
import { AttributeType, DataType, type DataTypeCode, ModelProto } from './onnxSchema.js';

/** A dimension: a fixed size or a symbolic name ("T", "past"). */
export type Dim = number | string;

/** Marks an attribute value as a float even when it is a whole number. */
/** onnxruntime's contrib operators (GroupQueryAttention …); every onnxruntime build registers them for CPU. */
export const MS_DOMAIN = 'com.microsoft';

export class FloatAttr {
  constructor(readonly value: number) {}
}
export const float = (value: number): FloatAttr => new FloatAttr(value);
export type AttrValue = number | FloatAttr | number[] | string | FloatAttr[] | SubgraphAttr;
/** A graph-valued attribute (the branches of If). */
export class SubgraphAttr {
  constructor(readonly graph: object) {}
}

interface Initializer {
  name: string;
  dataType: DataTypeCode;
  dims: number[];
  bytes: Uint8Array;
}

export interface SerializedModel {
  /** The .onnx file. */
  model: Uint8Array;
  /** Contents of the external data file, when any initializer went there. */
  externalData: Uint8Array[] | null;
}

export class GraphBuilder {
  private readonly nodes: object[] = [];
  private readonly inputs: object[] = [];
  private readonly outputs: object[] = [];
  private readonly initializers: Initializer[] = [];
  private readonly initializerNames = new Set<string>();
  private counter = 0;
  /** Operator-set domains used besides the default one (e.g. com.microsoft for GroupQueryAttention). */
  private readonly domains = new Set<string>();

  constructor(readonly name: string) {}

  input(name: string, dataType: DataTypeCode, shape: Dim[]): string {
    this.inputs.push(valueInfo(name, dataType, shape));
    return name;
  }

  /** Declares `source` as a graph output named `name` (through an Identity when the names differ). */
  output(source: string, name: string, dataType: DataTypeCode, shape: Dim[]): void {
    if (source !== name) this.nodes.push({ op_type: 'Identity', input: [source], output: [name], name: `out_${name}` });
    this.outputs.push(valueInfo(name, dataType, shape));
  }

  floatInit(name: string, data: Float32Array, dims: number[]): string {
    return this.addInit(name, DataType.FLOAT, dims, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  }

  int64Init(name: string, data: number[], dims: number[] = [data.length]): string {
    const arr = BigInt64Array.from(data.map((v) => BigInt(v)));
    return this.addInit(name, DataType.INT64, dims, new Uint8Array(arr.buffer));
  }

  int32Init(name: string, data: Int32Array, dims: number[] = [data.length]): string {
    return this.addInit(name, DataType.INT32, dims, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  }

  /** A float constant (scalar when `dims` is []). Deduplicated by value and shape. */
  scalar(value: number): string {
    const name = `const_f_${value}`;
    if (!this.initializerNames.has(name)) this.floatInit(name, new Float32Array([value]), []);
    return name;
  }

  ints(values: number[]): string {
    const name = `const_i_${values.join('_').replace(/-/g, 'm')}`;
    if (!this.initializerNames.has(name)) this.int64Init(name, values);
    return name;
  }

  /** Adds a node; returns its output names (fresh unless given). An empty input name marks an omitted optional input. */
  op(opType: string, inputs: string[], attrs: Record<string, AttrValue> = {}, outputCount = 1, outputs?: string[], domain = ''): string[] {
    const outNames = outputs ?? Array.from({ length: outputCount }, () => `${opType.toLowerCase()}_${this.counter++}`);
    if (domain) this.domains.add(domain);
    this.nodes.push({
      op_type: opType,
      input: inputs,
      output: outNames,
      name: `${opType}_${this.counter++}`,
      attribute: Object.entries(attrs).map(([key, value]) => attribute(key, value)),
      ...(domain ? { domain } : {}),
    });
    return outNames;
  }

  /** A node of onnxruntime's contrib operator set (domain com.microsoft, version 1). */
  msOp(opType: string, inputs: string[], attrs: Record<string, AttrValue> = {}, outputCount = 1, outputs?: string[]): string[] {
    return this.op(opType, inputs, attrs, outputCount, outputs, MS_DOMAIN);
  }

  /**
   * ONNX If: each branch is built on a child builder that may read this graph's values by name (outer scope) and
   * returns its output names; the If's outputs are `outputCount` fresh names. Value names stay unique across branches.
   */
  ifOp(cond: string, outputCount: number, thenBranch: (b: GraphBuilder) => string[], elseBranch: (b: GraphBuilder) => string[]): string[] {
    const branch = (label: string, build: (b: GraphBuilder) => string[]) => {
      const child = new GraphBuilder(`${this.name}_${label}_${this.counter++}`);
      child.counter = this.counter;
      const outs = build(child);
      this.counter = child.counter;
      if (child.initializers.length > 0) throw new Error(`graph ${this.name}: If branches take constants from the outer graph`);
      for (const d of child.domains) this.domains.add(d);
      return new SubgraphAttr({ name: child.name, node: child.nodes, input: [], output: outs.map((o) => ({ name: o })), initializer: [] });
    };
    return this.op('If', [cond], { then_branch: branch('then', thenBranch), else_branch: branch('else', elseBranch) }, outputCount);
  }

  /** Single-output shorthand for `op`. */
  op1(opType: string, inputs: string[], attrs: Record<string, AttrValue> = {}): string {
    return this.op(opType, inputs, attrs)[0]!;
  }

  /**
   * Serialises the model (opset 17, IR 8). Initializers larger than `externalThreshold` bytes are written to
   * `externalFileName` (next to the .onnx file) instead of inside the protobuf.
   */
  serialize(options: { externalFileName?: string; externalThreshold?: number; docString?: string } = {}): SerializedModel {
    const threshold = options.externalThreshold ?? Number.POSITIVE_INFINITY;
    const external: Uint8Array[] = [];
    let offset = 0;
    const initializer = this.initializers.map((init) => {
      if (options.externalFileName && init.bytes.byteLength > threshold) {
        const entry = {
          name: init.name,
          dims: init.dims,
          data_type: init.dataType,
          data_location: 1,
          external_data: [
            { key: 'location', value: options.externalFileName },
            { key: 'offset', value: String(offset) },
            { key: 'length', value: String(init.bytes.byteLength) },
          ],
        };
        external.push(init.bytes);
        offset += init.bytes.byteLength;
        return entry;
      }
      return { name: init.name, dims: init.dims, data_type: init.dataType, raw_data: init.bytes };
    });
    const message = ModelProto.create({
      ir_version: 8,
      producer_name: 'recto-reference-pack',
      producer_version: '1',
      doc_string: options.docString ?? '',
      opset_import: [{ domain: '', version: 17 }, ...[...this.domains].map((domain) => ({ domain, version: 1 }))],
      graph: { name: this.name, node: this.nodes, input: this.inputs, output: this.outputs, initializer },
    });
    return { model: ModelProto.encode(message).finish(), externalData: external.length > 0 ? external : null };
  }

  private addInit(name: string, dataType: DataTypeCode, dims: number[], bytes: Uint8Array): string {
    if (this.initializerNames.has(name)) throw new Error(`graph ${this.name}: duplicate initializer ${name}`);
    this.initializerNames.add(name);
    this.initializers.push({ name, dataType, dims, bytes });
    return name;
  }
}

function valueInfo(name: string, dataType: DataTypeCode, shape: Dim[]): object {
  return {
    name,
    type: {
      tensor_type: {
        elem_type: dataType,
        shape: { dim: shape.map((d) => (typeof d === 'number' ? { dim_value: d } : { dim_param: d })) },
      },
    },
  };
}

function attribute(name: string, value: AttrValue): object {
  if (value instanceof SubgraphAttr) return { name, type: AttributeType.GRAPH, g: value.graph };
  if (value instanceof FloatAttr) return { name, type: AttributeType.FLOAT, f: value.value };
  if (typeof value === 'string') return { name, type: AttributeType.STRING, s: new TextEncoder().encode(value) };
  if (typeof value === 'number') {
    return Number.isInteger(value) ? { name, type: AttributeType.INT, i: value } : { name, type: AttributeType.FLOAT, f: value };
  }
  if (value.length > 0 && value[0] instanceof FloatAttr) {
    return { name, type: AttributeType.FLOATS, floats: (value as FloatAttr[]).map((v) => v.value) };
  }
  return { name, type: AttributeType.INTS, ints: value as number[] };
}
