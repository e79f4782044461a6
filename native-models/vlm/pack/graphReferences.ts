/**
 * The files an ONNX graph makes onnxruntime read besides itself: every tensor stored outside the protobuf (ONNX's
 * external data, `data_location = EXTERNAL`, its `location` entry), in initializers, in tensor attributes of nodes
 * and in their subgraphs. A pack must list each of them in its manifest, so nothing is loaded unhashed.
 *
 * Only the fields on the way to those tensors are declared; protobufjs skips the rest of the model.
 */
import protobuf from 'protobufjs';

const schema = protobuf.Root.fromJSON({
  nested: {
    ModelProto: { fields: { graph: { type: 'GraphProto', id: 7 } } },
    GraphProto: {
      fields: {
        node: { rule: 'repeated', type: 'NodeProto', id: 1 },
        initializer: { rule: 'repeated', type: 'TensorProto', id: 5 },
      },
    },
    NodeProto: { fields: { attribute: { rule: 'repeated', type: 'AttributeProto', id: 5 } } },
    AttributeProto: {
      fields: {
        t: { type: 'TensorProto', id: 5 },
        g: { type: 'GraphProto', id: 6 },
        tensors: { rule: 'repeated', type: 'TensorProto', id: 10 },
        graphs: { rule: 'repeated', type: 'GraphProto', id: 11 },
      },
    },
    TensorProto: {
      fields: {
        name: { type: 'string', id: 8 },
        externalData: { rule: 'repeated', type: 'StringStringEntryProto', id: 13 },
        dataLocation: { type: 'int32', id: 14 },
      },
    },
    StringStringEntryProto: { fields: { key: { type: 'string', id: 1 }, value: { type: 'string', id: 2 } } },
  },
});
const modelType = schema.lookupType('ModelProto');

/** TensorProto.DataLocation.EXTERNAL */
const EXTERNAL = 1;

interface Tensor {
  name?: string;
  externalData?: { key?: string; value?: string }[];
  dataLocation?: number;
}
interface Graph {
  node?: { attribute?: { t?: Tensor; g?: Graph; tensors?: Tensor[]; graphs?: Graph[] }[] }[];
  initializer?: Tensor[];
}

/** The external data files the graph names (as written in the graph, deduplicated); throws on a malformed graph. */
export function externalDataFiles(graphBytes: Uint8Array): string[] {
  const model = modelType.toObject(modelType.decode(graphBytes)) as { graph?: Graph };
  const files = new Set<string>();
  const visitTensor = (tensor: Tensor | undefined) => {
    if (!tensor || tensor.dataLocation !== EXTERNAL) return;
    const location = tensor.externalData?.find((entry) => entry.key === 'location')?.value;
    // A tensor marked external without a location cannot be loaded; name it rather than let onnxruntime guess.
    files.add(location ?? `(no location for tensor ${tensor.name ?? '?'})`);
  };
  const visitGraph = (graph: Graph | undefined) => {
    if (!graph) return;
    graph.initializer?.forEach(visitTensor);
    for (const node of graph.node ?? []) {
      for (const attribute of node.attribute ?? []) {
        visitTensor(attribute.t);
        attribute.tensors?.forEach(visitTensor);
        visitGraph(attribute.g);
        attribute.graphs?.forEach(visitGraph);
      }
    }
  };
  visitGraph(model.graph);
  return [...files].sort();
}
