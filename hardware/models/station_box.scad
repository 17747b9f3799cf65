// Spielleiter: a player's station: three buttons (A, B, C) on top and a GX12 socket at one end.
// part = "body" (printed upside down, in the station's colour), "bottom" (the plate closing it),
// "top_2d" (a drilling template for a bought box's lid).
include <common.scad>
$fn = fn;
part = "body";

box = station_box_size;           // outside: length, width, height
shell = 2.4;
button_pitch = 26;
button_x0 = -12;                  // the row sits off-centre: the socket's body needs the room
letters = ["A", "B", "C"];
screw_at = [for (sx = [-1, 1], sy = [-1, 1]) [sx * (box[0] / 2 - shell - 3.5), sy * (box[1] / 2 - shell - 3.5)]];

module top_2d() {
    difference() {
        square([box[0], box[1]], center = true);
        for (i = [0 : 2]) translate([button_x0 + (i - 1) * button_pitch, 4]) hole(button_hole_d);
    }
}

// Origin: the middle of the box's underside; its top at z = box[2].
module body() {
    difference() {
        translate([-box[0] / 2, -box[1] / 2, 0]) cube(box);
        translate([-box[0] / 2 + shell, -box[1] / 2 + shell, -1]) cube([box[0] - 2 * shell, box[1] - 2 * shell, box[2] - shell + 1]);
        translate([0, 0, box[2] - shell - 1]) linear_extrude(shell + 2) difference() {
            square([box[0] + 2, box[1] + 2], center = true);
            top_2d();
        }
        // the letters, 0.8 mm deep beside each button, the same on every station
        for (i = [0 : 2]) translate([button_x0 + (i - 1) * button_pitch, -box[1] / 2 + 9, box[2] - 0.8])
            linear_extrude(1) text(letters[i], size = 7, halign = "center", valign = "center",
                                   font = "DejaVu Sans:style=Bold");
        // the socket for the cable to the main box
        translate([box[0] / 2 - shell - 1, 0, box[2] / 2 - 1]) rotate([0, 90, 0]) cylinder(d = gx12_hole_d + clearance, h = shell + 2);
    }
    for (p = screw_at) translate([p[0] - 3.5, p[1] - 3.5, 2]) difference() {   // over the bottom plate
        cube([7, 7, box[2] - shell - 2]);
        translate([3.5, 3.5, -1]) cylinder(d = 2.5, h = 12);
    }
}

module bottom() {
    difference() {
        translate([-box[0] / 2 + shell + 0.3, -box[1] / 2 + shell + 0.3, 0]) cube([box[0] - 2 * shell - 0.6, box[1] - 2 * shell - 0.6, 2]);
        for (p = screw_at) translate([p[0], p[1], -1]) cylinder(d = 3.4, h = 4);
        for (p = screw_at) translate([p[0], p[1], -0.01]) cylinder(d1 = 6.4, d2 = 3.4, h = 1.5);
    }
}

if (part == "body") translate([0, 0, box[2]]) mirror([0, 0, 1]) body();   // top down on the bed
else if (part == "bottom") bottom();
else if (part == "top_2d") top_2d();
else assert(false, str("station_box.scad: unknown part ", part));
