"""A small Parquet reader in the standard library, for the files ``autoforge export`` writes
(verl and SkyRL ``train.parquet``/``val.parquet``) where pyarrow is not installed.

It reads what that writer (hyparquet-writer) produces and the common subset around it: the
Thrift compact footer, data pages v1 and v2, dictionary pages, PLAIN and RLE_DICTIONARY values,
UNCOMPRESSED and SNAPPY codecs, and nested columns (structs, three-level LISTs, MAPs) rebuilt
from their repetition and definition levels. Anything else raises :class:`ParquetError`. With
pyarrow at hand, ``pyarrow.parquet.read_table(path).to_pylist()`` gives the same rows.
"""

import struct
from typing import Any, Dict, List, Optional, Tuple


class ParquetError(ValueError):
    """A file this reader cannot read (not Parquet, or an encoding or codec it does not know)."""


# --- Thrift compact protocol -------------------------------------------------------------------


class _Thrift:
    def __init__(self, data: bytes, pos: int = 0) -> None:
        self.data, self.pos = data, pos

    def byte(self) -> int:
        b = self.data[self.pos]
        self.pos += 1
        return b

    def varint(self) -> int:
        shift = result = 0
        while True:
            b = self.byte()
            result |= (b & 0x7F) << shift
            if not b & 0x80:
                return result
            shift += 7

    def zigzag(self) -> int:
        n = self.varint()
        return (n >> 1) ^ -(n & 1)

    def value(self, kind: int) -> Any:
        if kind == 1:
            return True
        if kind == 2:
            return False
        if kind == 3:
            return struct.unpack_from("<b", self.data, self._skip(1))[0]
        if kind in (4, 5, 6):
            return self.zigzag()
        if kind == 7:
            return struct.unpack_from("<d", self.data, self._skip(8))[0]
        if kind == 8:
            n = self.varint()
            return bytes(self.data[self._skip(n): self.pos])
        if kind in (9, 10):
            header = self.byte()
            size, elem = header >> 4, header & 0x0F
            if size == 15:
                size = self.varint()
            if elem in (1, 2):  # booleans in a list are one byte each
                return [self.byte() == 1 for _ in range(size)]
            return [self.value(elem) for _ in range(size)]
        if kind == 11:
            size = self.varint()
            if size == 0:
                return {}
            kinds = self.byte()
            return {self.value(kinds >> 4): self.value(kinds & 0x0F) for _ in range(size)}
        if kind == 12:
            return self.struct()
        raise ParquetError(f"parquet: unknown Thrift type {kind}")

    def _skip(self, n: int) -> int:
        start = self.pos
        self.pos += n
        return start

    def struct(self) -> Dict[int, Any]:
        fields: Dict[int, Any] = {}
        last = 0
        while True:
            header = self.byte()
            if header == 0:
                return fields
            delta, kind = header >> 4, header & 0x0F
            last = last + delta if delta else self.zigzag()
            fields[last] = self.value(kind)


# --- Encodings ---------------------------------------------------------------------------------


def _snappy(data: bytes) -> bytes:
    t = _Thrift(data)
    size = t.varint()
    out = bytearray()
    pos, n = t.pos, len(data)
    while pos < n:
        tag = data[pos]
        pos += 1
        kind = tag & 3
        if kind == 0:
            length = tag >> 2
            if length >= 60:
                extra = length - 59
                length = int.from_bytes(data[pos: pos + extra], "little")
                pos += extra
            length += 1
            out += data[pos: pos + length]
            pos += length
            continue
        if kind == 1:
            length = ((tag >> 2) & 7) + 4
            offset = ((tag >> 5) << 8) | data[pos]
            pos += 1
        elif kind == 2:
            length = (tag >> 2) + 1
            offset = int.from_bytes(data[pos: pos + 2], "little")
            pos += 2
        else:
            length = (tag >> 2) + 1
            offset = int.from_bytes(data[pos: pos + 4], "little")
            pos += 4
        if offset == 0 or offset > len(out):
            raise ParquetError("parquet: corrupt Snappy block")
        start = len(out) - offset
        for i in range(length):  # byte by byte: a copy may overlap what it writes
            out.append(out[start + i])
    if len(out) != size:
        raise ParquetError("parquet: Snappy block of the wrong length")
    return bytes(out)


_CODECS = {0: lambda b: b, 1: _snappy}


def _hybrid(data: bytes, pos: int, end: int, width: int, count: int) -> List[int]:
    """The RLE / bit-packed hybrid encoding (levels and dictionary indices)."""
    out: List[int] = []
    t = _Thrift(data, pos)
    nbytes = (width + 7) // 8
    while len(out) < count and t.pos < end:
        header = t.varint()
        if header & 1:
            groups = header >> 1
            raw = int.from_bytes(data[t.pos: t.pos + groups * width], "little")
            t.pos += groups * width
            mask = (1 << width) - 1
            out.extend((raw >> (i * width)) & mask for i in range(groups * 8))
        else:
            value = int.from_bytes(data[t.pos: t.pos + nbytes], "little")
            t.pos += nbytes
            out.extend([value] * (header >> 1))
    return out[:count]


def _plain(data: bytes, pos: int, ptype: int, count: int, type_length: int) -> List[Any]:
    if ptype == 0:
        return [bool((data[pos + i // 8] >> (i % 8)) & 1) for i in range(count)]
    fixed = {1: "<i", 2: "<q", 4: "<f", 5: "<d"}
    if ptype in fixed:
        size = struct.calcsize(fixed[ptype])
        return [struct.unpack_from(fixed[ptype], data, pos + i * size)[0] for i in range(count)]
    if ptype == 6:
        out = []
        for _ in range(count):
            n = struct.unpack_from("<I", data, pos)[0]
            out.append(bytes(data[pos + 4: pos + 4 + n]))
            pos += 4 + n
        return out
    if ptype == 7:
        return [bytes(data[pos + i * type_length: pos + (i + 1) * type_length]) for i in range(count)]
    raise ParquetError(f"parquet: physical type {ptype} is not supported")


# --- Schema ------------------------------------------------------------------------------------


class _Node:
    def __init__(self, element: Dict[int, Any]) -> None:
        self.name = element[4].decode("utf-8")
        self.type: Optional[int] = element.get(1)
        self.type_length = element.get(2, 0)
        self.repetition = element.get(3, 0)  # 0 REQUIRED, 1 OPTIONAL, 2 REPEATED
        self.converted = element.get(6)
        logical = element.get(10) or {}
        self.is_string = self.converted in (0, 19) or 1 in logical or 12 in logical  # UTF8, JSON; STRING, JSON
        self.children: List["_Node"] = []


def _tree(elements: List[Dict[int, Any]]) -> _Node:
    index = 0

    def build() -> _Node:
        nonlocal index
        node = _Node(elements[index])
        count = elements[index].get(5, 0)
        index += 1
        node.children = [build() for _ in range(count)]
        return node

    return build()


def _leaves(node: _Node, path: List[_Node]) -> List[List[_Node]]:
    if not node.children:
        return [path]
    return [leaf for child in node.children for leaf in _leaves(child, path + [child])]


# --- Column chunks -----------------------------------------------------------------------------


def _read_chunk(data: bytes, meta: Dict[int, Any], path: List[_Node]) -> Tuple[List[int], List[int], List[Any]]:
    leaf = path[-1]
    max_def = sum(1 for n in path if n.repetition != 0)
    max_rep = sum(1 for n in path if n.repetition == 2)
    codec = _CODECS.get(meta[4])
    if codec is None:
        raise ParquetError(f"parquet: codec {meta[4]} is not supported (only UNCOMPRESSED and SNAPPY)")
    total = meta[5]
    pos = min(p for p in (meta.get(11), meta[9]) if p is not None)
    dictionary: Optional[List[Any]] = None
    reps: List[int] = []
    defs: List[int] = []
    values: List[Any] = []
    while len(defs) < total and pos < len(data) - 8:
        t = _Thrift(data, pos)
        header = t.struct()
        start, size = t.pos, header[3]
        pos = start + size
        kind = header[1]
        if kind == 2:  # dictionary page
            page = codec(data[start: start + size])
            dictionary = _plain(page, 0, leaf.type or 0, header[7][1], leaf.type_length)
            continue
        if kind == 3:  # data page v2: levels uncompressed before the (maybe compressed) values
            h = header[8]
            n, rep_len, def_len = h[1], h[6], h[5]
            r = _hybrid(data, start, start + rep_len, max_rep.bit_length(), n) if max_rep else [0] * n
            d = _hybrid(data, start + rep_len, start + rep_len + def_len, max_def.bit_length(), n) if max_def else [0] * n
            body = data[start + rep_len + def_len: start + size]
            if h.get(7, True):
                body = codec(body)
            encoding, offset = h[4], 0
        elif kind == 0:  # data page v1: levels inside the compressed page, each with a length
            h = header[5]
            n = h[1]
            body = codec(data[start: start + size])
            offset = 0
            r, d = [0] * n, [0] * n
            if max_rep:
                length = struct.unpack_from("<I", body, offset)[0]
                r = _hybrid(body, offset + 4, offset + 4 + length, max_rep.bit_length(), n)
                offset += 4 + length
            if max_def:
                length = struct.unpack_from("<I", body, offset)[0]
                d = _hybrid(body, offset + 4, offset + 4 + length, max_def.bit_length(), n)
                offset += 4 + length
            encoding = h[2]
        else:
            continue
        present = sum(1 for x in d if x == max_def) if max_def else n
        if encoding == 0:
            page_values = _plain(body, offset, leaf.type or 0, present, leaf.type_length)
        elif encoding in (2, 8):
            if dictionary is None:
                raise ParquetError("parquet: dictionary-encoded page without a dictionary")
            width = body[offset]
            page_values = [dictionary[i] for i in _hybrid(body, offset + 1, len(body), width, present)]
        else:
            raise ParquetError(f"parquet: encoding {encoding} is not supported (only PLAIN and dictionaries)")
        reps += r
        defs += d
        values += page_values
    if leaf.is_string:
        values = [v.decode("utf-8") for v in values]
    return reps, defs, values


def _assemble(path: List[_Node], reps: List[int], defs: List[int], values: List[Any]) -> List[Dict[str, Any]]:
    """One leaf's rows: dicts for groups, lists for repeated nodes, ``None`` where undefined."""
    rows: List[Dict[str, Any]] = []
    max_def = sum(1 for n in path if n.repetition != 0)
    it = iter(values)
    for r, d in zip(reps, defs):
        if r == 0:
            rows.append({})
        container: Any = rows[-1]
        level_def = level_rep = 0
        for i, node in enumerate(path):
            last = i == len(path) - 1
            if node.repetition == 1:
                if d <= level_def:
                    container.setdefault(node.name, None)
                    break
                level_def += 1
            if node.repetition == 2:
                items = container.setdefault(node.name, [])
                if d <= level_def:
                    break
                level_def += 1
                level_rep += 1
                if last:
                    items.append(next(it) if d == max_def else None)
                    break
                if r <= level_rep or not items:
                    items.append({})
                container = items[-1]
                continue
            if last:
                container[node.name] = next(it) if d == max_def else None
            else:
                container = container.setdefault(node.name, {})
    return rows


def _merge(a: Any, b: Any) -> Any:
    if isinstance(a, dict) and isinstance(b, dict):
        merged = dict(a)
        for k, v in b.items():
            merged[k] = _merge(merged[k], v) if k in merged else v
        return merged
    if isinstance(a, list) and isinstance(b, list):
        return [_merge(x, y) for x, y in zip(a, b)]
    return a if b is None else b


def _logical(node: _Node, value: Any) -> Any:
    """Collapses LIST and MAP wrappers into Python lists and dicts."""
    if value is None:
        return None
    if node.repetition == 2 and node.children and isinstance(value, list):
        return [_logical_group(node, v) for v in value]
    if node.converted == 3 and len(node.children) == 1 and node.children[0].repetition == 2:
        repeated = node.children[0]
        items = value.get(repeated.name, [])
        if len(repeated.children) == 1:
            inner = repeated.children[0]
            return [_logical(inner, item.get(inner.name) if isinstance(item, dict) else item) for item in items]
        return [_logical_group(repeated, item) for item in items]
    if node.converted in (1, 2) and len(node.children) == 1 and node.children[0].repetition == 2:
        entries = value.get(node.children[0].name, [])
        key, val = node.children[0].children
        return {_logical(key, e.get(key.name)): _logical(val, e.get(val.name)) for e in entries}
    if node.children:
        return _logical_group(node, value)
    return value


def _logical_group(node: _Node, value: Any) -> Any:
    if not isinstance(value, dict):
        return value
    return {child.name: _logical(child, value.get(child.name)) for child in node.children}


def read_parquet(path: str) -> List[Dict[str, Any]]:
    """The rows of a Parquet file as dicts (columns in schema order; INT64 as ``int``, strings
    as ``str``, structs as dicts, lists as lists).

    Raises:
        ParquetError: not a Parquet file, or a feature this reader does not have.
    """
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 12 or data[:4] != b"PAR1" or data[-4:] != b"PAR1":
        raise ParquetError(f"{path}: not a Parquet file")
    length = struct.unpack_from("<I", data, len(data) - 8)[0]
    meta = _Thrift(data, len(data) - 8 - length).struct()
    root = _tree(meta[2])
    leaves = _leaves(root, [])
    rows: List[Dict[str, Any]] = []
    for group in meta.get(4, []):
        merged: Optional[List[Dict[str, Any]]] = None
        for chunk, leaf_path in zip(group[1], leaves):
            reps, defs, values = _read_chunk(data, chunk[3], leaf_path)
            leaf_rows = _assemble(leaf_path, reps, defs, values)
            merged = leaf_rows if merged is None else [_merge(a, b) for a, b in zip(merged, leaf_rows)]
        rows += [_logical_group(root, row) for row in merged or []]
    return rows
