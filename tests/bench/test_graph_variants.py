"""bench/retrieval/graph_variants.py (a screen, not shipped): the 8-bit MatMulNBits graph holds the
shipped int8 weights exactly, keeps the fused graph's attention mask, and embeds as the default
model does up to its activation quantization."""

from collections import Counter

import numpy as np
import onnx
from onnx import numpy_helper

from bench.retrieval import quant_variants
from bench.retrieval.graph_variants import nbits_graph
from memories.embedding import MiniLMInt8Embedder, rowquant_roles
from tests.memories.texts import real_sentences


def test_every_weight_product_is_an_8_bit_matmulnbits_on_the_shipped_int8_values():
    graph = onnx.load_from_string(nbits_graph(block=32)).graph
    kinds = Counter(n.op_type for n in graph.node)
    assert kinds["MatMulNBits"] == 36 and kinds["MultiHeadAttention"] == 6
    assert not kinds["MatMul"] and not kinds["Attention"]
    values = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    source = MiniLMInt8Embedder._shipped_model()
    shipped = onnx.load(str(source))
    matmuls, _, dequant = rowquant_roles(shipped)
    shipped_values = {i.name: numpy_helper.to_array(i) for i in shipped.graph.initializer}
    first_q = shipped_values[dequant[matmuls[0].input[1]][0]]  # layer 0's query weight, (384, 384) int8
    [node] = [n for n in graph.node if n.output[0] == "q0"]
    attributes = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
    assert attributes["bits"] == 8 and attributes["block_size"] == 32
    packed = values[node.input[1]]  # (N, blocks, block) uint8 with zero point 128
    assert np.array_equal(packed.reshape(384, 384).T.astype(np.int16) - 128, first_q.astype(np.int16))
    assert np.all(values[node.input[3]] == 128)


def test_its_vectors_are_the_default_models_up_to_the_activation_quantization():
    texts = real_sentences()[:60]
    reference = np.array(MiniLMInt8Embedder(threads=1).embed(texts))
    variant = np.array(quant_variants.embedder_for(nbits_graph(block=32)).embed(texts))
    cosines = (reference * variant).sum(axis=1)
    assert cosines.min() > 0.998, cosines.min()  # 0.9993 at worst on 2,800 texts (bench/NOTES.md)
    assert not np.allclose(reference, variant, atol=1e-5)  # quantized activations: not the same graph
