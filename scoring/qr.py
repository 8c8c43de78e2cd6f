"""A QR code as inline SVG, for the screens (the cockpit's phone link) and the printed pages."""

from __future__ import annotations

import io
import re

_XML_DECLARATION = re.compile(r"^<\?xml[^>]*\?>\s*")
_SVG_ID = re.compile(r'\sid="[^"]*"')


def qr_svg(url: str) -> str:
    """An inline <svg> QR code for `url` (no file or network access, so rendering stays fast)."""
    import qrcode
    from qrcode.image.svg import SvgPathImage

    qr = qrcode.QRCode(border=2, image_factory=SvgPathImage)
    qr.add_data(url)
    qr.make(fit=True)
    buffer = io.BytesIO()
    qr.make_image().save(buffer)
    svg = _XML_DECLARATION.sub("", buffer.getvalue().decode())
    # The same code printed on several pages would repeat the path's id in one document.
    return _SVG_ID.sub("", svg)
