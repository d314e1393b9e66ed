// FreeType, as Debian's libfreetype-dev installs it (pkg-config freetype2).
// Only FBText and the tests' reference renderer use it.
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H
