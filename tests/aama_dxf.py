"""DXF-AAMA test files for drape_tests dxf (tests/test_dxf.c), written by an independent writer,
Debian's python3-ezdxf: one BLOCK per piece, the boundary on layer 1, the grain line on layer 7,
notches on layer 4, millimetres by $INSUNITS (docs/garments.md, "Patterns from DXF-AAMA").
usage: /usr/bin/python3 tests/aama_dxf.py DIR
       /usr/bin/python3 tests/aama_dxf.py --sleeve FILE   (scenes/patterns/sleeve.dxf)"""
import os
import sys

import ezdxf


def pattern(path, pieces, insunits=4):
    doc = ezdxf.new("R2000")
    doc.header["$INSUNITS"] = insunits
    for name, add in pieces.items():
        block = doc.blocks.new(name=name)
        add(block)
        doc.modelspace().add_blockref(name, (0, 0))
    doc.saveas(path)


def front(b):
    # x, y, start width, end width, bulge to the next point: a 300 x 400 mm piece whose top is an arc
    b.add_lwpolyline([(0, 0, 0, 0, 0), (300, 0, 0, 0, 0), (300, 400, 0, 0, 0.25), (0, 400, 0, 0, 0)],
                     format="xyseb", close=True, dxfattribs={"layer": "1"})
    b.add_line((150, 50), (150, 350), dxfattribs={"layer": "7"})
    b.add_point((120, 0), dxfattribs={"layer": "4"})  # n0, on the bottom edge
    b.add_line((290, 250), (300, 250), dxfattribs={"layer": "4"})  # n1, a slit notch ending on the right edge
    b.add_point((0, 400), dxfattribs={"layer": "4"})  # n2, on the vertex p3: it takes the name
    b.add_text("Piece Name: FRONT", dxfattribs={"layer": "1"})


def back(b):
    # the old-style POLYLINE with VERTEX entities, as many AAMA writers emit it; the last vertex repeats the first
    b.add_polyline2d([(0, 0), (300, 0), (300, 400), (0, 400), (0, 0)], dxfattribs={"layer": "1"})


def bow(b):
    b.add_lwpolyline([(0, 0), (300, 300), (300, 0), (0, 300)], close=True, dxfattribs={"layer": "1"})


def stray_notch(b):
    b.add_lwpolyline([(0, 0), (300, 0), (300, 400), (0, 400)], close=True, dxfattribs={"layer": "1"})
    b.add_point((150, 10), dxfattribs={"layer": "4"})


def open_boundary(b):
    b.add_lwpolyline([(0, 0), (300, 0), (300, 400), (0, 400)], close=False, dxfattribs={"layer": "1"})


def sleeve_piece(notch_x):
    # scenes/patterns/sleeve.svg's panels as DXF-AAMA pieces: 360 x 480 mm, the top an arc of 30 mm
    # sagitta (bulge 2 * 30 / 360), a notch halfway up one side, the grain line along the sleeve
    def add(b):
        b.add_lwpolyline([(0, 0, 0, 0, 0), (360, 0, 0, 0, 0), (360, 480, 0, 0, 1 / 6), (0, 480, 0, 0, 0)],
                         format="xyseb", close=True, dxfattribs={"layer": "1"})
        b.add_line((180, 40), (180, 440), dxfattribs={"layer": "7"})
        b.add_point((notch_x, 240), dxfattribs={"layer": "4"})
    return add


if sys.argv[1] == "--sleeve":
    pattern(sys.argv[2], {"FRONT": sleeve_piece(360), "BACK": sleeve_piece(0)})
    sys.exit(0)
out = sys.argv[1]
pattern(os.path.join(out, "aama.dxf"), {"FRONT": front, "BACK": back})
pattern(os.path.join(out, "bad.dxf"), {"BOW": bow, "STRAY": stray_notch, "OPEN": open_boundary})
pattern(os.path.join(out, "nounits.dxf"), {"BACK": back}, insunits=0)  # unitless
empty = ezdxf.new("R2000")
empty.modelspace().add_line((0, 0), (1, 1))
empty.saveas(os.path.join(out, "empty.dxf"))
