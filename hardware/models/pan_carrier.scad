// Spielleiter: what carries a pan. part = "cradle" (the fixed end's spacer block and the overload
// stop's boss on one strip), "post" (on the loaded end: the pan's spacer, through the lid), "pan",
// or "pan_2d" (the pan's disc for a laser cutter), each lying as it prints.
//
// In the case (see assembly.scad) the cell runs from the front (loaded end, under the pan's centre)
// to the back (fixed end). The stop, a set screw in a locknut captive in the cradle's boss, meets
// the cell's underside under the pan's centre; turned from underneath through the base, it is
// set stop_gap below the cell.
include <common.scad>
$fn = fn;
part = "cradle";

nut_d = stop_nut_af / cos(30) + 0.3;                // across the corners, with room to press it in

// Origin: under the pan's centre on the case's base; the cell lies towards +y.
module cradle() {
    difference() {
        union() {
            translate([-8, -8, 0]) cube([16, fixed_pair_y + loaded_centre + 8, cradle_t]);
            translate([-8, fixed_pair_y - loaded_centre, 0]) cube([16, 2 * loaded_centre, fixed_block_h]);
            cylinder(d = 12, h = stop_boss_h);
        }
        // the fixed end's screws come up through the base, the block and into the cell
        for (dy = [-1, 1]) translate([0, fixed_pair_y + dy * cell_hole_pitch / 2, -1])
            cylinder(d = cell_thread_fixed_d + 0.5, h = fixed_block_h + 2);
        // the stop: a set screw through a captive locknut, its flat point up under the cell
        translate([0, 0, -1]) cylinder(d = stop_screw_d + 0.4, h = stop_boss_h + 2);
        translate([0, 0, stop_boss_h - stop_nut_h - 0.2]) cylinder(d = nut_d, h = stop_nut_h + 1, $fn = 6);
        // the cradle's own M3 through the base, countersunk
        translate([0, cradle_pin_y - stop_y, -1]) cylinder(d = stop_screw_d + 0.4, h = cradle_t + 2);
        translate([0, cradle_pin_y - stop_y, cradle_t - 1.7]) cylinder(d1 = stop_screw_d + 0.4, d2 = 6.4, h = 1.71);
    }
}

// Origin: on the cell's top, between the loaded end's two threads.
module post() {
    difference() {
        union() {
            translate([-post_size[0] / 2, -post_size[1] / 2, 0]) cube([post_size[0], post_size[1], post_h]);
            translate([0, 0, post_h]) cylinder(d = seat_d, h = seat_t);
        }
        for (dy = [-1, 1]) translate([0, dy * cell_hole_pitch / 2, 0]) {
            translate([0, 0, -1]) cylinder(d = cell_thread_loaded_d + 0.4, h = head_floor + 2);
            translate([0, 0, head_floor]) cylinder(d = head_bore_d, h = post_h + seat_t);
        }
        for (a = [0, 120, 240]) rotate(a) translate([pan_screw_r, 0, post_h - 1])
            cylinder(d = 2.5, h = seat_t + 2);
    }
}

module pan_2d() {
    difference() {
        circle(d = pan_diameter);
        for (a = [0, 120, 240]) rotate(a) translate([pan_screw_r, 0]) circle(d = 3.4);
    }
}

// Origin: the pan's underside at its centre.
module pan() {
    difference() {
        union() {
            linear_extrude(pan_floor) pan_2d();
            difference() {
                cylinder(d = pan_diameter, h = pan_floor + pan_rim);
                translate([0, 0, -1]) cylinder(d = pan_diameter - 4, h = pan_floor + pan_rim + 2);
            }
        }
        for (a = [0, 120, 240]) rotate(a) translate([pan_screw_r, 0, pan_floor - 1.7])
            cylinder(d1 = 3.4, d2 = 6.6, h = 1.71);
    }
}

if (part == "cradle") cradle();
else if (part == "post") translate([0, 0, post_h + seat_t]) mirror([0, 0, 1]) post();  // seat down
else if (part == "pan") pan();
else if (part == "pan_2d") pan_2d();
// footprints for the fit checks: what touches the base, and what touches the cell
else if (part == "cradle_plan") projection(cut = true) translate([0, 0, -1]) cradle();
else if (part == "post_plan") projection(cut = true) translate([0, 0, -1]) post();
else assert(false, str("pan_carrier.scad: unknown part ", part));
