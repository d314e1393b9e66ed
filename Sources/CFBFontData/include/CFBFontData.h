// fbanim's built-in font, compiled into the binary so a text shows from an
// initramfs with no font file: a subset of DejaVu Sans (TrueType), made by
// Scripts/gen-default-font.py. Licence: LICENSE beside the data.
#ifndef CFBFONTDATA_H
#define CFBFONTDATA_H

#include <stddef.h>

/// The font's bytes (static, never freed); its length in bytes goes to `*length`.
const unsigned char *fbanim_default_font(size_t *length);

#endif
