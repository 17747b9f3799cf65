// Spielleiter: the case. part = "tray" (base and walls, printed in one), "lid", or one flat panel
// for a laser-cut case: "base_2d", "lid_2d", "back_2d", "front_2d", "side_2d" (run with wall=6).
include <common.scad>
$fn = fn;
part = "tray";

wall_h = case_h - base_t - lid_t;     // the walls stand on the base, under the lid

// ---- the flat panels: the laser-cut case is these, the printed one is built from them ----

module base_2d() {
    difference() {
        translate([-case_w / 2, 0]) square([case_w, case_d]);
        for (p = pi[1]) translate(pi_at(p)) hole(pi_hole_d);
        for (sx = [-1, 1]) {
            // the fixed end's two screws, up through the base into the cell's threads
            for (dy = [-1, 1]) translate([sx * pan_x, cell_fixed_y - loaded_centre + dy * cell_hole_pitch / 2])
                hole(cell_thread_fixed_d + 0.3);
            translate([sx * pan_x, stop_y]) hole(stop_screw_d + 1);          // the stop screw's tip
            translate([sx * pan_x, cradle_pin_y]) hole(stop_screw_d + 0.2);  // the cradle's M3
        }
        // air in under the Pi, between its standoffs
        slots(pi_at([pi_board[0] - 14, pi_board[1] - 12]), pi_at([12, 12]), 7);
    }
}

module lid_2d() {
    difference() {
        translate([-case_w / 2, 0]) square([case_w, case_d]);
        translate(oled_at + [0, oled_window_dy]) rounded_square(oled_window, 1);
        for (dx = [-1, 1], dy = [-1, 1])
            translate(oled_at + [dx * oled_hole_pitch[0] / 2, dy * oled_hole_pitch[1] / 2]) hole(oled_hole_d);
        for (x = button_xs) translate([x, front_strip / 2]) hole(button_hole_d);
        translate(buzzer_at) {
            hole(1.8);
            for (a = [0 : 60 : 300]) rotate(a) translate([3.5, 0]) hole(1.8);
        }
        for (sx = [-1, 1]) translate([sx * pan_x, pan_y])
            rounded_square(post_size + [2 * post_clear, 2 * post_clear], post_clear);
        slots([-40, case_d - wall - 18], [40, case_d - wall - 4], 12);
        for (p = lid_screws) translate(p) hole(3.2);
    }
}

// The back wall as seen from behind, x mirrored so the panel reads as cut: u = -x, v = z - base_t.
module back_2d() {
    difference() {
        translate([-case_w / 2, 0]) square([case_w, wall_h]);
        mirror([1, 0]) {
            translate([pi_power_x, pi_power_z]) rounded_square(pi[3], 1.5);
            for (x = socket_xs(station_count)) translate([x, socket_z]) hole(gx12_hole_d);
            translate(link_at) hole(link_hole_d);
        }
    }
}

module front_2d() { translate([-case_w / 2, 0]) square([case_w, wall_h]); }

module side_2d() {
    difference() {
        square([case_d - 2 * wall, wall_h]);
        slots([30, wall_h - 14], [case_d - 2 * wall - 30, wall_h - 6], 10);
    }
}

// ---- the printed case ----

module tray() {
    union() {
            linear_extrude(base_t) base_2d();
            // walls: front, back, then the two sides between them
            translate([0, wall, base_t]) rotate([90, 0, 0]) linear_extrude(wall) front_2d();
            translate([0, case_d, base_t]) rotate([90, 0, 0]) linear_extrude(wall) back_2d_from_outside();
            for (sx = [-1, 1]) translate([sx * (case_w / 2 - wall / 2) - wall / 2, wall, base_t])
                rotate([90, 0, 90]) linear_extrude(wall) side_2d();
            // the Pi's standoffs
            for (p = pi[1]) translate([each pi_at(p), base_t]) difference() {
                cylinder(d = 6, h = pi_standoff);
                translate([0, 0, -1]) cylinder(d = pi_hole_d + clearance, h = pi_standoff + 2);
            }
            // posts in the corners for the lid's screws (M3, self-tapping: 2.5 mm pilot)
            for (p = lid_screws) translate([p[0], p[1], base_t]) difference() {
                translate([-5, -5, 0]) cube([10, 10, wall_h]);
                translate([0, 0, wall_h - 12]) cylinder(d = 2.5, h = 13);
            }
    }
}

// back_2d is drawn as seen from behind; inside the tray it is seen from the front.
module back_2d_from_outside() { mirror([1, 0]) back_2d(); }

module lid() {
    linear_extrude(lid_t) lid_2d();
    // under the lid: a ring holding the buzzer below its holes
    translate([each buzzer_at, -buzzer_h + 0.01]) difference() {
        cylinder(d = buzzer_d + clearance + 3.2, h = buzzer_h);
        translate([0, 0, -1]) cylinder(d = buzzer_d + clearance, h = buzzer_h + 2);
    }
}

if (part == "tray") tray();
else if (part == "lid") translate([0, 0, case_h - lid_t]) lid();
else if (part == "lid_print") lid_upside_down();
else if (part == "base_2d") base_2d();
else if (part == "lid_2d") lid_2d();
else if (part == "back_2d") back_2d();
else if (part == "front_2d") front_2d();
else if (part == "side_2d") side_2d();
else assert(false, str("case.scad: unknown part ", part));

module lid_upside_down() { translate([0, 0, lid_t]) mirror([0, 0, 1]) lid(); }
