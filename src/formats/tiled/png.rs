//! The tileset's picture: four hex-shaped tiles (low ground, high ground, forest, sea) side by
//! side, as a PNG drawn at the map's hex size. Small enough to write by hand: RGBA rows,
//! stored (uncompressed) in zlib's framing.

use super::geometry::HexSize;

/// Colours of the tiles, in tileset order: low ground, high ground, forest (see-through, to
/// lie over either ground), sea.
const COLOURS: [[u8; 4]; 4] =
    [[0xdf, 0xe8, 0xbf, 0xff], [0xb9, 0x93, 0x62, 0xff], [0x2f, 0x6e, 0x32, 0xa0], [0x9c, 0xc4, 0xe4, 0xff]];

/// The tileset image for hexes of `size`.
pub fn tileset_png(size: HexSize) -> Vec<u8> {
    let (w, h) = (size.width, size.height);
    let width = w * COLOURS.len() as u32;
    let mut raw = Vec::with_capacity(((width * 4 + 1) * h) as usize);
    for y in 0..h {
        raw.push(0); // no filter
        for (colour, x) in COLOURS.iter().flat_map(|c| (0..w).map(move |x| (c, x))) {
            let inside = in_hex(size, f64::from(x) + 0.5, f64::from(y) + 0.5);
            raw.extend_from_slice(if inside { colour } else { &[0, 0, 0, 0] });
        }
    }
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&h.to_be_bytes());
    ihdr.extend_from_slice(&[8, 6, 0, 0, 0]); // 8 bits, RGBA, deflate, no filter, no interlace
    chunk(&mut png, b"IHDR", &ihdr);
    chunk(&mut png, b"IDAT", &zlib_stored(&raw));
    chunk(&mut png, b"IEND", &[]);
    png
}

/// True when a point of a tile lies inside its flat-topped hex.
fn in_hex(s: HexSize, x: f64, y: f64) -> bool {
    let (w, h, side) = (f64::from(s.width), f64::from(s.height), f64::from(s.side));
    let slant = (w - side) / 2.0;
    let from_middle = ((y - h / 2.0) / (h / 2.0)).abs();
    let left = slant * from_middle;
    from_middle <= 1.0 && x >= left && x <= w - left
}

fn chunk(png: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    png.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = png.len();
    png.extend_from_slice(kind);
    png.extend_from_slice(data);
    let crc = crc32(&png[start..]);
    png.extend_from_slice(&crc.to_be_bytes());
}

/// zlib framing around stored deflate blocks.
fn zlib_stored(data: &[u8]) -> Vec<u8> {
    let mut out = vec![0x78, 0x01];
    let blocks: Vec<&[u8]> = if data.is_empty() { vec![&[][..]] } else { data.chunks(0xffff).collect() };
    let last = blocks.len() - 1;
    for (i, b) in blocks.into_iter().enumerate() {
        out.push(u8::from(i == last));
        let len = b.len() as u16;
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&(!len).to_le_bytes());
        out.extend_from_slice(b);
    }
    let (mut a, mut b) = (1u32, 0u32);
    for &byte in data {
        a = (a + u32::from(byte)) % 65521;
        b = (b + a) % 65521;
    }
    out.extend_from_slice(&((b << 16) | a).to_be_bytes());
    out
}

fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in data {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xedb8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checksums_are_the_standard_ones() {
        assert_eq!(crc32(b"123456789"), 0xcbf4_3926);
        assert_eq!(&zlib_stored(b"Wikipedia")[2 + 5 + 9..], &0x11e6_0398u32.to_be_bytes());
    }

    #[test]
    fn a_tile_is_a_hex_with_see_through_corners() {
        let s = HexSize::DEFAULT;
        assert!(in_hex(s, 16.0, 14.0));
        assert!(!in_hex(s, 0.5, 0.5));
        assert!(in_hex(s, 0.5, 14.0));
        let png = tileset_png(s);
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        assert_eq!(&png[16..24], &[0, 0, 0, 128, 0, 0, 0, 28], "four tiles of 32 by 28");
    }
}
