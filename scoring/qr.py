"""A QR code as inline SVG, for the screens (the cockpit's phone link) and the printed pages."""

from __future__ import annotations

BORDER = 2  # modules of white around the code


def qr_svg(url: str) -> str:
    """An inline <svg> QR code for `url` (no file or network access, so rendering stays fast).

    One rectangle per run of dark modules in a row, not one per module as qrcode's SvgPathImage
    draws them: the same picture with about a third of the path, which WeasyPrint parses and
    draws on every printed page that carries a code (and PDF readers parse back).
    """
    import qrcode

    qr = qrcode.QRCode(border=BORDER)
    qr.add_data(url)
    qr.make(fit=True)
    size = qr.modules_count + 2 * BORDER
    runs = []
    for y, row in enumerate(qr.modules, start=BORDER):
        x = 0
        while x < len(row):
            if not row[x]:
                x += 1
                continue
            start = x
            while x < len(row) and row[x]:
                x += 1
            runs.append(f"M{start + BORDER},{y}h{x - start}v1h{start - x}z")
    return (
        f'<svg width="{size}mm" height="{size}mm" version="1.1" viewBox="0 0 {size} {size}" '
        f'xmlns="http://www.w3.org/2000/svg"><path d="{"".join(runs)}" fill="#000000" '
        'fill-rule="nonzero" stroke="none"/></svg>'
    )
