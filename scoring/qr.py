"""A QR code as inline SVG, for the screens (the cockpit's phone link) and the printed pages."""

from __future__ import annotations

BORDER = 2  # modules of white around the code


def qr_svg(url: str) -> str:
    """An inline <svg> QR code for `url` (no file or network access, so rendering stays fast).

    One rectangle per run of dark modules, stretched down while the rows below repeat it, not one
    per module as qrcode's SvgPathImage draws them: the same picture with a third of the path,
    which WeasyPrint parses and draws on every printed page that carries a code (and PDF
    readers parse back).
    """
    import qrcode

    qr = qrcode.QRCode(border=BORDER)
    qr.add_data(url)
    qr.make(fit=True)
    size = qr.modules_count + 2 * BORDER
    rectangles = []  # [x, y, width, height]
    open_by_run: dict[tuple[int, int], list[int]] = {}  # runs of the row above
    for y, row in enumerate(qr.modules):
        below: dict[tuple[int, int], list[int]] = {}
        for run in dark_runs(row):
            rectangle = open_by_run.get(run)
            if rectangle is None:
                rectangle = [run[0], y, run[1] - run[0], 0]
                rectangles.append(rectangle)
            rectangle[3] += 1
            below[run] = rectangle
        open_by_run = below
    path = "".join(
        f"M{x + BORDER},{y + BORDER}h{width}v{height}h-{width}z"
        for x, y, width, height in rectangles
    )
    return (
        f'<svg width="{size}mm" height="{size}mm" version="1.1" viewBox="0 0 {size} {size}" '
        f'xmlns="http://www.w3.org/2000/svg"><path d="{path}" fill="#000000" '
        'fill-rule="nonzero" stroke="none"/></svg>'
    )


def dark_runs(row: list[bool | None]) -> list[tuple[int, int]]:
    """(start, end) of each run of dark modules in a row, end excluded."""
    runs = []
    x = 0
    while x < len(row):
        if row[x]:
            start = x
            while x < len(row) and row[x]:
                x += 1
            runs.append((start, x))
        x += 1
    return runs
