#include <cmark-gfm.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm-core-extensions.h>

// The extensions' node types, declared in cmark-gfm's table.h and strikethrough.h (which Debian does not
// install) and exported by libcmark-gfm-extensions.
// Read through functions, since Swift 6 refuses to read a mutable C global; set once the extensions are registered.
extern cmark_node_type CMARK_NODE_TABLE_CELL, CMARK_NODE_STRIKETHROUGH;
static inline cmark_node_type noticeboard_table_cell_type(void) { return CMARK_NODE_TABLE_CELL; }
static inline cmark_node_type noticeboard_strikethrough_type(void) { return CMARK_NODE_STRIKETHROUGH; }
