// Spielleiter: the box put together, one step of the build at a time (the assembly guide's
// pictures). step = 1 .. 6; "section" cuts through a pan to show the stop's gap; "parts" lays
// out the printed parts. Bought parts
// (the Pi, cells, boards, buttons) are simple stand-ins in their own colours.
include <common.scad>
use <case.scad>
use <pan_carrier.scad>
use <station_box.scad>
$fn = fn;
step = 6;
explode = 0;                      // lifts the parts added in this step, to show where they go

printed = "#f2b134";
printed2 = "#d9d9d9";

module pi_board() {
    color("#1b7f3b") translate([each pi_at([pi_board[0], pi_board[1]]), base_t + pi_standoff])
        cube([pi_board[0], pi_board[1], 1.4]);
    color("#c0c0c0") translate([pi_power_x - 4.5, pi_edge_y - 7.5, base_t + pi_standoff + 1.4]) cube([9, 7.5, 3.2]);
    color("#c0c0c0") translate([each pi_at([pi_board[0] + 2, pi_board[1] - 2]), base_t + pi_standoff + 1.4])
        cube([17, pi_board[1] - 4, 14]);              // the USB and Ethernet block
}

module cell(sx) {
    color("#b8bcc2") translate([sx * pan_x - cell_size[1] / 2, cell_loaded_y, cell_under])
        cube([cell_size[1], cell_size[0], cell_size[2]]);
    color("white") translate([sx * pan_x - cell_size[1] / 2 - 0.2, cell_loaded_y + 27, cell_under + cell_size[2] - 0.5])
        cube([cell_size[1] + 0.4, 26, 1]);            // the gauges under their glue
}

module hx711(sx) {
    color("#1b7f3b") translate([sx * (pan_x + 23) - 10.5, case_d - wall - 60, base_t + 3]) cube([21, 34, 1.6]);
}

module stop_screw(sx) {           // the set screw, its top stop_gap under the cell, and its locknut
    color("#444") translate([sx * pan_x, stop_y, 0]) {
        translate([0, 0, cell_under - stop_gap - stop_screw_len]) cylinder(d = stop_screw_d, h = stop_screw_len);
        translate([0, 0, base_t + stop_boss_h - stop_nut_h]) cylinder(d = stop_nut_af / cos(30), h = stop_nut_h, $fn = 6);
    }
}

module lid_parts() {
    z = case_h - lid_t;
    color("#1f4e9c") translate([oled_at[0] - oled_board[0] / 2, oled_at[1] - oled_board[1] / 2, z - 3]) cube([oled_board[0], oled_board[1], 1.6]);
    color("#111") translate([oled_at[0] - 13, oled_at[1] + oled_window_dy - 7.5, z - 1.4]) cube([26, 15, 1.4]);
    for (i = [0 : 2]) translate([button_xs[i], front_strip / 2, z]) {
        color(["#333", "#2e7d32", "#1565c0"][i]) cylinder(d = button_hole_d - 2, h = lid_t + 3);
        color("#666") translate([0, 0, -button_depth]) cylinder(d = button_hole_d, h = button_depth);
    }
    color("#111") translate([each buzzer_at, z - buzzer_h]) cylinder(d = buzzer_d, h = buzzer_h);
}

module sockets() {
    for (x = socket_xs(station_count)) translate([x, case_d, base_t + socket_z]) rotate([90, 0, 0]) {
        color("#888") cylinder(d = gx12_hole_d, h = gx12_depth);
        color("#aaa") translate([0, 0, -3]) cylinder(d = gx12_nut_d, h = 3, $fn = 6);
    }
}

module pan_on(sx) {
    translate([sx * pan_x, pan_y, case_h + seat_lift + seat_t + 2 * explode]) color("#fafafa") pan();
}

module station(x, colour) {
    translate([x, -90, 0]) {
        color(colour) body();
        for (i = [0 : 2]) translate([-12 + (i - 1) * 26, 4, station_box_size[2]])
            color(["white", "#f5d90a", "#222"][i]) cylinder(d = button_hole_d - 2, h = 3);
    }
}

module build(upto) {
    color(printed) tray();
    if (upto >= 1) pi_board();
    if (upto >= 2) for (sx = [-1, 1]) { carrier_base(sx); }
    if (upto >= 3) sockets();
    if (upto >= 4) translate([0, 0, case_h - lid_t + (upto == 4 ? explode : 0)]) { color(printed) lid(); translate([0, 0, -(case_h - lid_t)]) lid_parts(); }
    if (upto >= 5) for (sx = [-1, 1]) { translate([sx * pan_x, pan_y, cell_top + (upto == 5 ? explode : 0)]) color(printed2) post(); pan_on(sx); }
    if (upto >= 6) for (i = [0 : station_count - 1])
        station((i - (station_count - 1) / 2) * (station_box_size[0] + 15), station_colours[i]);
}

module carrier_base(sx) {
    translate([sx * pan_x, stop_y, base_t]) color(printed2) cradle();
    cell(sx);
    hx711(sx);
    stop_screw(sx);
}

// Cut through the left pan's centre, seen from the left (the front on the left): base, cradle and
// stop, cell, post, pan, each in its colour, flat, with the sizes that matter written beside them.
module cut(c, z = 0) color(c) translate([0, 0, z]) linear_extrude(1) intersection() {
    mirror([1, 0]) rotate(90) projection(cut = true) rotate([0, 90, 0]) translate([pan_x, 0, 0]) children();
    translate([60, -10]) square([case_d - 55, 100]);
}

module note(at, words) color("#222") translate([at[0], at[1], 3]) linear_extrude(1)
    text(words, size = 3.2, font = "DejaVu Sans", valign = "center");

module section() {
    cut(printed) tray();
    cut(printed) translate([0, 0, case_h - lid_t]) lid();
    cut(printed2, 0.5) translate([-pan_x, stop_y, base_t]) cradle();
    cut("#b8bcc2", 0.5) cell(-1);
    cut("#444", 1) stop_screw(-1);
    cut(printed2, 0.5) translate([-pan_x, pan_y, cell_top]) post();
    cut("#9ec9ff", 0.5) translate([-pan_x, pan_y, case_h + seat_lift + seat_t]) pan();
    note([stop_y - 32, -9], str("stop ", stop_gap, " mm below the cell"));
    note([cell_fixed_y - 30, -9], "fixed end on its block");
    note([cell_fixed_y - 40, cell_top + 4], "cell (arrow down)");
    note([stop_y + 22, case_h + 3], str(seat_lift, " mm over the lid"));
    note([stop_y - 30, case_h + seat_lift + seat_t + pan_floor + pan_rim + 4], "pan on its post");
}

// The printed parts as they lie on the printer's bed, one of each.
module printed_parts() {
    color(printed) tray();
    translate([0, case_d + 20, 0]) color(printed) translate([0, 0, lid_t]) mirror([0, 0, 1]) lid();
    translate([case_w / 2 + 30, 0, 0]) {
        color(printed2) cradle();
        translate([30, 20, 0]) color(printed2) translate([0, 0, post_h + seat_t]) mirror([0, 0, 1]) post();
        translate([35, 110, 0]) color("#fafafa") pan();
    }
    translate([case_w / 2 + 150, 40, 0]) {
        color(station_colours[0]) translate([0, 0, station_box_size[2]]) mirror([0, 0, 1]) body();
        translate([0, 90, 0]) color(station_colours[0]) bottom();
    }
}

if (step == "section") section();
else if (step == "parts") printed_parts();
else build(step);
