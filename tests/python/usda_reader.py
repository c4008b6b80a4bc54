"""A small reader of USD text layers (.usda), written from the published grammar (OpenUSD, "USD
file format" / the usda text syntax), independent of drape's writer: a layer is "#usda 1.0",
optional layer metadata in parentheses, then prims `def|over|class [Type] "name" [(metadata)] {
... }` holding attributes `[uniform|custom] type[[]] name[.timeSamples|.connect] [= value]
[(metadata)]`, nested prims and relationships. Values are numbers, strings, tokens, tuples
`( ... )`, arrays `[ ... ]` and time-sample dictionaries `{ time: value, ... }`.
Only what a cloth cache uses is supported; anything else raises SyntaxError."""
import re

_TOKEN = re.compile(r"""
    (?P<ws>\s+|\#(?!usda)[^\n]*) |
    (?P<header>\#usda\s+[0-9.]+) |
    (?P<string>"(?:[^"\\\n]|\\.)*") |
    (?P<number>[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?inf|nan) |
    (?P<ident>[A-Za-z_][A-Za-z0-9_:]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?) |
    (?P<punct>\[\]|[\[\](){}=,:;])
""", re.X)


def _tokens(text):
    pos = 0
    out = []
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise SyntaxError(f"usda: unexpected character {text[pos]!r} at offset {pos}")
        pos = m.end()
        kind = m.lastgroup
        if kind != "ws":
            out.append((kind, m.group()))
    return out


class Prim:
    def __init__(self, specifier, type_name, name):
        self.specifier, self.type_name, self.name = specifier, type_name, name
        self.attributes = {}   # name -> value (default) ; name + ".timeSamples" -> {time: value}
        self.types = {}        # attribute name -> declared type ("point3f[]", ...)
        self.metadata = {}     # attribute name -> its metadata dict
        self.children = {}


class Layer:
    def __init__(self, metadata, prims):
        self.metadata, self.prims = metadata, prims

    def prim(self, path):
        parts = [p for p in path.split("/") if p]
        node = self.prims[parts[0]]
        for p in parts[1:]:
            node = node.children[p]
        return node


class _Parser:
    def __init__(self, text):
        self.t = _tokens(text)
        self.i = 0

    def peek(self, k=0):
        return self.t[self.i + k] if self.i + k < len(self.t) else (None, None)

    def take(self, value=None, kind=None):
        tok = self.peek()
        if (value is not None and tok[1] != value) or (kind is not None and tok[0] != kind):
            raise SyntaxError(f"usda: expected {value or kind}, got {tok[1]!r} (token {self.i})")
        self.i += 1
        return tok[1]

    def value(self):
        kind, text = self.peek()
        if text == "[":
            self.take("[")
            items = []
            while self.peek()[1] != "]":
                items.append(self.value())
                if self.peek()[1] == ",":
                    self.take(",")
            self.take("]")
            return items
        if text == "(":
            self.take("(")
            items = []
            while self.peek()[1] != ")":
                items.append(self.value())
                if self.peek()[1] == ",":
                    self.take(",")
            self.take(")")
            return tuple(items)
        if text == "{":
            self.take("{")
            samples = {}
            while self.peek()[1] != "}":
                t = float(self.take(kind="number"))
                self.take(":")
                samples[t] = self.value()
                if self.peek()[1] == ",":
                    self.take(",")
            self.take("}")
            return samples
        self.i += 1
        if kind == "number":
            return float(text) if re.search(r"[.eEn]", text) else int(text)
        if kind == "string":
            return text[1:-1]
        if kind == "ident":
            return text
        raise SyntaxError(f"usda: unexpected {text!r} where a value belongs")

    def metadata(self):
        """( key = value ... ) or ( "doc string" key = value ... )"""
        self.take("(")
        md = {}
        while self.peek()[1] != ")":
            if self.peek()[0] == "string":
                md["doc"] = self.value()
                continue
            key = self.take(kind="ident")
            self.take("=")
            md[key] = self.value()
            if self.peek()[1] == ";":
                self.take(";")
        self.take(")")
        return md

    def prim(self):
        spec = self.take(kind="ident")
        if spec not in ("def", "over", "class"):
            raise SyntaxError(f"usda: expected def/over/class, got {spec!r}")
        type_name = self.take(kind="ident") if self.peek()[0] == "ident" else ""
        prim = Prim(spec, type_name, self.take(kind="string")[1:-1])
        if self.peek()[1] == "(":
            self.metadata()
        self.take("{")
        while self.peek()[1] != "}":
            if self.peek()[1] in ("def", "over", "class") and self.peek(1)[0] in ("ident", "string"):
                child = self.prim()
                prim.children[child.name] = child
                continue
            words = []
            while self.peek()[0] == "ident" or self.peek()[1] == "[]":
                if self.peek()[1] == "[]":
                    words[-1] += "[]"
                    self.i += 1
                else:
                    words.append(self.take(kind="ident"))
            if len(words) < 2:
                raise SyntaxError(f"usda: expected an attribute declaration near token {self.i}")
            qualifiers = [w for w in words[:-2] if w in ("uniform", "custom", "varying")]
            if len(qualifiers) != len(words) - 2:
                raise SyntaxError(f"usda: unknown qualifiers {words[:-2]}")
            type_name, name = words[-2], words[-1]
            prim.types[name.split(".")[0]] = type_name
            if self.peek()[1] == "=":
                self.take("=")
                prim.attributes[name] = self.value()
            if self.peek()[1] == "(":
                prim.metadata[name] = self.metadata()
        self.take("}")
        return prim


def parse(text):
    p = _Parser(text)
    header = p.take(kind="header")
    if not header.startswith("#usda 1."):
        raise SyntaxError(f"usda: unsupported header {header!r}")
    md = p.metadata() if p.peek()[1] == "(" else {}
    prims = {}
    while p.peek()[0] is not None:
        prim = p.prim()
        prims[prim.name] = prim
    return Layer(md, prims)
