// Spielleiter: the sizes every model shares, and where each part sits in the case.
// Units: mm. The case's origin: x = 0 in the middle, y = 0 at the front, z = 0 under the base.
// The parts' own sizes come from parts.toml through from_parts.scad (generated: do not edit).
include <from_parts.scad>

fn = 48;                 // facets of a full circle (the tests render with fewer)
clearance = 0.2;         // added to every hole a bought part goes through
wall = 3;                // the tray's walls (a printed case); 6 for plywood: scripts set it
base_t = wall;           // the base plate
lid_t = wall;            // the lid
case_h = base_t + 47;    // outside height: what stands on the base stays the same for plywood

// The two pans, side by side, their centres over the cells' loaded ends.
pan_gap = 30;                                   // between the pans: nothing can bridge them
pan_x = pan_diameter / 2 + pan_gap / 2;         // each pan's centre, left at -pan_x
front_strip = 40;                               // the OLED and the host buttons, in front
pan_y = front_strip + 5 + pan_diameter / 2;
loaded_centre = cell_hole_inset + cell_hole_pitch / 2;   // a hole pair's middle, from the end
cell_loaded_y = pan_y - loaded_centre;          // the cell's loaded end (towards the front)
cell_fixed_y = cell_loaded_y + cell_size[0];    // its fixed end (towards the back)
case_w = 2 * pan_x + pan_diameter - 2 * 10;     // the pans overhang each side by 10 mm
case_d = cell_fixed_y + 5 + wall;

// A cell's stack: the cradle on the base, the cell, the post carrying the pan.
cradle_t = 3;                     // the cradle's strip
fixed_block_h = 12;               // the fixed end's spacer block, from the cradle's underside
cell_under = base_t + fixed_block_h;          // the cell's underside
cell_top = cell_under + cell_size[2];
stop_boss_h = 5;                  // the stop's boss, from the cradle's underside
stop_y = pan_y;                   // the stop sits under the pan's centre
cradle_pin_y = stop_y + 11;       // the cradle's hold-down screw (M3 through the base)
post_size = [16, cell_hole_pitch + 13];       // the post on the loaded end (x, y)
post_clear = 3;                   // round the post in the lid: no finger, no rubbing
seat_d = 36;                      // the pan's seat on top of the post
seat_t = 4;
seat_lift = 4;                    // the seat's underside above the lid
post_h = case_h + seat_lift - cell_top;          // the post, from the cell's top to the seat
fixed_pair_y = cell_size[0] - 2 * loaded_centre; // from the loaded hole pair to the fixed pair
pan_screw_r = 14;                 // three M3 screws hold the pan on its seat
head_bore_d = 8;                  // access to the loaded end's screws from the top
head_floor = 5;                   // what the screw heads press on

// The Pi at the back in the middle, its power and HDMI edge against the back wall.
function pi_data(model) =
    model == "zero2w" ? [[65, 30], [[3.5, 3.5], [61.5, 3.5], [3.5, 26.5], [61.5, 26.5]], 54, [11, 6]]
  : model == "5"      ? [[85, 56], [[3.5, 3.5], [61.5, 3.5], [3.5, 52.5], [61.5, 52.5]], 11.2, [12, 6.5]]
  :                     [[85, 56], [[3.5, 3.5], [61.5, 3.5], [3.5, 52.5], [61.5, 52.5]], 11.2, [12, 6.5]];
pi = pi_data(pi_model);
pi_board = pi[0];
pi_hole_d = 2.7;                  // M2.5
pi_standoff = 5;
pi_edge_y = case_d - wall - 1;    // the board's port edge, 1 mm inside the back wall
// A point of the board (its own drawing: origin at the SD card's end of the port edge) in the case.
function pi_at(p) = [pi_board[0] / 2 - p[0], pi_edge_y - p[1]];
pi_power_x = pi_at([pi[2], 0])[0];
pi_power_z = pi_standoff + 1.4 + 1.6;          // above the base's top

// The lid's front strip: OLED on the left, BACK, OK, NEXT on the right, the buzzer far left.
oled_at = [-35, front_strip / 2];
button_xs = [20, 45, 70];
buzzer_at = [-80, front_strip / 2];
lid_screw_inset = wall + 5;
lid_screws = [for (sx = [-1, 1], y = [lid_screw_inset, case_d - lid_screw_inset])
              [sx * (case_w / 2 - lid_screw_inset), y]];

// The back wall: a GX12 socket per station, the link's cable gland, the Pi's power.
socket_z = case_h - base_t - lid_t - 10;   // above the base's top, clear of the lid
socket_pitch = 26;
function socket_xs(n) = [for (i = [0 : n - 1]) (i - (n - 1) / 2) * socket_pitch];
link_at = [-pan_x, socket_z];
link_hole_d = 6.5;

module rounded_square(size, r) {
    offset(r = r) square([size[0] - 2 * r, size[1] - 2 * r], center = true);
}

module hole(d) { circle(d = d + clearance); }

module slots(from, to, n, slot_w = 3) {   // ventilation: narrower than 4 mm, for fingers and pencils
    pitch = (to[0] - from[0]) / max(n - 1, 1);
    for (i = [0 : n - 1])
        translate([from[0] + i * pitch, (from[1] + to[1]) / 2])
            rounded_square([slot_w, to[1] - from[1]], slot_w / 2 - 0.01);
}
