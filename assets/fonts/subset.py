#!/usr/bin/env python3
"""Makes assets/fonts/UbuntuLight-derivative-Kriegsspiel.ttf, the panels' font: Ubuntu Light (from
the epaint_default_fonts crate, under the Ubuntu Font Licence, UFL.txt here) cut to the scripts
the game writes in (Latin, Greek and Cyrillic, punctuation, arrows and mathematical signs), without
its hinting instructions (egui's rasteriser hints outlines itself), and renamed as UFL 1.0 §2(c)
asks of a Modified Version that is not Substantially Changed. A third of its size, for the browser
download. Run with fontTools (`pip install fonttools`):

    python3 assets/fonts/subset.py ~/.cargo/registry/src/*/epaint_default_fonts-0.36*/fonts/Ubuntu-Light.ttf

`src/hud/mod.rs`'s tests check that it draws every character of the string tables, the rules
references and the shipped data files.
"""
import sys
from fontTools import subset
from fontTools.ttLib import TTFont

OUT = "assets/fonts/UbuntuLight-derivative-Kriegsspiel.ttf"
UNICODES = (
    "U+0020-007E,U+00A0-024F,U+0370-03FF,U+0400-04FF,U+2000-206F,U+20A0-20CF,"
    "U+2100-214F,U+2190-21FF,U+2200-22FF,U+25A0-25FF"
)
NAME = "Ubuntu Light derivative Kriegsspiel"

def main(source):
    options = subset.Options()
    options.layout_features = ["kern", "liga"]
    options.hinting = False
    options.name_IDs = ["*"]
    font = TTFont(source)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=subset.parse_unicodes(UNICODES))
    subsetter.subset(font)
    names = font["name"]
    for record in names.names:
        if record.nameID in (1, 4, 16):
            record.string = NAME
        elif record.nameID == 3:
            record.string = NAME + "; subset of Ubuntu Light"
        elif record.nameID == 6:
            record.string = NAME.replace(" ", "")
    font.save(OUT)

if __name__ == "__main__":
    main(sys.argv[1])
