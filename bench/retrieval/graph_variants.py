"""One more graph of the shipped MiniLM for bench/retrieval/quant_variants.py (issue 25, fourth
round; it does not ship, bench/NOTES.md says why).

``nbits_graph``: the default's fused graph (:func:`memories.embedding.fused_graph`) with every
weight product an onnxruntime ``MatMulNBits`` of 8 bits. The shipped file's int8 weights and
per-column scales are held exactly (uint8 with zero point 128, the column's scale repeated over its
blocks), so the only change is onnxruntime's: at ``accuracy_level`` 4 it quantizes the activations
to int8 per block of ``block`` input channels; at 0 or 1 (float activations) it dequantizes the
weights on every call, several times slower than the float graph. Attention is
``MultiHeadAttention`` on the three products, which keeps the fused graph's padding mask.
"""

from __future__ import annotations

from typing import Any

import numpy as np

#: all-MiniLM-L6-v2's heads and hidden width.
HEADS, HIDDEN = 12, 384


def nbits_graph(block: int = 32, accuracy_level: int = 4) -> bytes:
    """The fused graph with 8-bit ``MatMulNBits`` products on the shipped int8 weights."""
    import onnx
    from onnx import helper, numpy_helper

    from memories.embedding import ROLES, MiniLMInt8Embedder, _dequantized, fused_graph, fused_product, rowquant_roles

    source = MiniLMInt8Embedder._shipped_model()
    shipped_model = onnx.load(str(source))
    matmuls, _, dequant = rowquant_roles(shipped_model)
    shipped = {i.name: i for i in shipped_model.graph.initializer}
    fused = onnx.load_from_string(fused_graph(source))
    fused_inits = {i.name: numpy_helper.to_array(i) for i in fused.graph.initializer}
    extra: list[Any] = []
    nodes: list[Any] = []

    def const(name: str, value: np.ndarray) -> str:
        extra.append(numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    def product(x: str, node: Any, out: str, bias: np.ndarray | None = None) -> Any:
        q_name, scale_name = dequant[node.input[1]]
        q = numpy_helper.to_array(shipped[q_name])
        scale = numpy_helper.to_array(shipped[scale_name]).astype(np.float32).reshape(-1)
        k, n = q.shape
        blocks = k // block
        packed = (q.astype(np.int16) + 128).astype(np.uint8).T.reshape(n, blocks, block)
        scales = np.repeat(np.broadcast_to(scale, (n,))[:, None], blocks, axis=1)
        inputs = [
            x,
            const(f"{out}_b", packed),
            const(f"{out}_s", scales.reshape(-1)),
            const(f"{out}_z", np.full(n * blocks, 128, dtype=np.uint8)),
        ]
        if bias is not None:
            inputs += ["", const(f"{out}_bias", bias.astype(np.float32))]
        return helper.make_node(
            "MatMulNBits",
            inputs,
            [out],
            domain="com.microsoft",
            K=k,
            N=n,
            bits=8,
            block_size=block,
            accuracy_level=accuracy_level,
        )

    for node in fused.graph.node:
        if node.op_type == "Attention":  # inputs: h{i}, qkv{i}, qkv_bias{i}, mask_index
            i = int(node.output[0].removeprefix("attention"))
            qkv_w, qkv_b = fused_inits[node.input[1]], fused_inits[node.input[2]]
            for j, part in enumerate("qkv"):
                columns = slice(j * HIDDEN, (j + 1) * HIDDEN)
                exported = matmuls[i * len(ROLES) + j]
                # The fused graph's weight is the shipped int8 times its scale, exactly.
                if not np.array_equal(_dequantized(shipped, dequant[exported.input[1]]), qkv_w[:, columns]):
                    raise ValueError(f"layer {i} {part}: the fused weight is not the shipped one")
                nodes.append(product(node.input[0], exported, f"{part}{i}", qkv_b[columns]))
            nodes.append(
                helper.make_node(
                    "MultiHeadAttention",
                    [f"q{i}", f"k{i}", f"v{i}", "", node.input[3]],
                    [node.output[0]],
                    domain="com.microsoft",
                    num_heads=HEADS,
                )
            )
        elif node.op_type == "MatMul":  # weights wo{i}, w1{i}, w2{i}: attn_out, ffn_in, ffn_out
            i, role = fused_product(node)
            nodes.append(product(node.input[0], matmuls[i * len(ROLES) + ROLES.index(role)], node.output[0]))
        else:
            nodes.append(node)
    read = {i for n in nodes for i in n.input}
    kept = [i for i in fused.graph.initializer if i.name in read] + [i for i in extra if i.name in read]
    graph = helper.make_graph(nodes, f"nbits{block}", list(fused.graph.input), list(fused.graph.output), kept)
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("com.microsoft", 1)], ir_version=8
    )
    return model.SerializeToString()
