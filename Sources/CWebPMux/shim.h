#ifndef NOTICEBOARD_CWEBPMUX_SHIM_H
#define NOTICEBOARD_CWEBPMUX_SHIM_H

// libwebpmux (Debian's libwebp-dev, which libvips-dev depends on): the WebP container's chunks.
#include <webp/mux.h>

/// Rewrites a WebP file without its EXIF, XMP and ICC chunks into `out` (free it with nb_webp_free).
/// libvips 8.14's WebP encoder writes EXIF and ICC even when told to strip metadata. Returns 0 on success.
static inline int nb_webp_without_metadata(const uint8_t *bytes, size_t length, WebPData *out) {
    WebPData input = { bytes, length };
    WebPMux *mux = WebPMuxCreate(&input, 0);
    if (!mux) return -1;
    WebPMuxDeleteChunk(mux, "EXIF");
    WebPMuxDeleteChunk(mux, "XMP ");
    WebPMuxDeleteChunk(mux, "ICCP");
    WebPDataInit(out);
    WebPMuxError status = WebPMuxAssemble(mux, out);
    WebPMuxDelete(mux);
    return status == WEBP_MUX_OK ? 0 : -1;
}

static inline void nb_webp_free(WebPData *data) {
    WebPDataClear(data);
}

#endif
