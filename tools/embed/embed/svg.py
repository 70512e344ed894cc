"""Figures from chapter output and the explorer: parsed, rewritten from an allowlist, and themed.

Chapter output is untrusted, so a figure is never passed through as written."""

import re
import xml.etree.ElementTree as ET


SVG_NS = "http://www.w3.org/2000/svg"
SVG_TAGS = {"svg", "g", "rect", "line", "polyline", "polygon", "path", "circle", "ellipse", "text",
            "tspan", "title", "desc", "defs", "marker", "clipPath", "linearGradient", "stop"}
SVG_ATTRS = {
    "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "dx", "dy", "width", "height",
    "viewBox", "preserveAspectRatio", "d", "points", "transform", "fill", "fill-opacity",
    "fill-rule", "stroke", "stroke-width", "stroke-opacity", "stroke-dasharray", "stroke-linecap",
    "stroke-linejoin", "opacity", "font-size", "font-family", "font-weight", "font-style",
    "text-anchor", "dominant-baseline", "alignment-baseline", "class", "id", "role", "aria-label",
    "aria-labelledby", "aria-describedby", "marker-start", "marker-mid", "marker-end", "markerWidth",
    "markerHeight", "refX", "refY", "orient", "markerUnits", "clip-path", "offset", "stop-color",
    "stop-opacity", "gradientUnits", "letter-spacing", "textLength", "lengthAdjust",
    "vector-effect", "shape-rendering", "version", "visibility", "display",
}


# No "style": CSS escapes (\\75 rl() and functions such as image-set('...') can reach outside the
# page, and the book's figures need none of it.
DATA_ATTR_RE = re.compile(r"^data-[a-z][a-z0-9-]*$")  # inert: no browser acts on data-* attributes
URL_RE = re.compile(r"url\(\s*([^)]*)\)", re.I)


def sanitize_svg(text, where, problems):
    """Parse an SVG and write it again from an allowlist: no scripts, no outside references.

    Writing the parsed tree escapes every text and attribute; anything not on the list is refused
    (a problem), never passed through.
    """
    if re.search(r"<!(DOCTYPE|ENTITY)", text, re.I):
        # Entities expand before the allowlist sees the text; the figures never need them.
        problems.add(where, "figure has a DOCTYPE or entity declaration")
        return None
    try:
        root = ET.fromstring(text)
    except ET.ParseError as e:
        problems.add(where, f"figure is not well-formed SVG: {e}")
        return None
    ok = True
    for el in root.iter():
        tag = el.tag
        if not isinstance(tag, str) or not tag.startswith("{" + SVG_NS + "}"):
            problems.add(where, f"figure has a non-SVG element {tag!r}")
            ok = False
            continue
        local = tag[len(SVG_NS) + 2:]
        if local not in SVG_TAGS:
            problems.add(where, f"figure has a disallowed element <{local}>")
            ok = False
        for attr, value in el.attrib.items():
            name = attr
            if attr == "{http://www.w3.org/XML/1998/namespace}space":
                continue
            if name not in SVG_ATTRS and not DATA_ATTR_RE.match(name):
                problems.add(where, f"figure has a disallowed attribute {name!r} on <{local}>")
                ok = False
                continue
            low = value.lower()
            for target in URL_RE.findall(value):
                if not target.strip(" '\"").startswith("#"):
                    problems.add(where, f"figure refers outside itself: {value!r}")
                    ok = False
            if "javascript:" in low or "expression(" in low or "@import" in low or "\\" in value:
                problems.add(where, f"figure attribute {name!r} holds {value!r}")
                ok = False
    if not ok:
        return None
    theme_classes(root)
    ET.register_namespace("", SVG_NS)
    return ET.tostring(root, encoding="unicode")


# Colours that mean "the page's background" and "the page's ink" in a figure drawn for paper
# (gnuplot's charts, say): in the page they take the theme's colours through these classes (see
# book.css), so a chart follows dark mode like the text around it. Any other colour is data.
THEME_FILL = {"#ffffff": "bg", "white": "bg", "black": "ink", "#000000": "ink", "gray": "muted"}
THEME_STROKE = {"black": "ink-line", "#000000": "ink-line", "gray": "muted-line"}


def theme_classes(root):
    for el in root.iter():
        classes = el.get("class", "").split()
        if classes:
            continue  # the figure chose its own classes (the library's pictures do)
        fill = el.get("fill", "").lower()
        stroke = el.get("stroke", "").lower()
        # Only a white *rectangle* is a background: white text on a dark bar is data.
        if fill in THEME_FILL and (THEME_FILL[fill] != "bg" or el.tag.endswith("}rect")):
            classes.append(THEME_FILL[fill])
        if stroke in THEME_STROKE:
            classes.append(THEME_STROKE[stroke])
        if classes:
            el.set("class", " ".join(classes))


def svg_width(svg):
    """The width a figure is drawn for, in px: its width attribute, else its viewBox's."""
    head = svg[:svg.find(">") + 1]
    m = re.search(r'\swidth="([0-9.]+)(px)?"', head)
    if m:
        return float(m.group(1))
    m = re.search(r'\sviewBox="[-0-9.]+[ ,]+[-0-9.]+[ ,]+([0-9.]+)', head)
    return float(m.group(1)) if m else None
