// Spielleiter: the sizes the parts must fit by, printed as ECHO lines (no geometry). The tests
// and `python scripts/hardware.py check` read them.
include <common.scad>

// The stop is a set screw in a locknut captive in the cradle's boss, turned from underneath.
stop_lowest = stop_screw_len;                       // its lower end flush with the base's underside
stop_highest = base_t + stop_boss_h - stop_nut_h + stop_screw_len;   // its lower end in the nut
stop_set = cell_under - stop_gap;                   // where it is set
echo(case_size = [case_w, case_d, case_h]);
echo(pan_x = pan_x, pan_y = pan_y, pan_diameter = pan_diameter, pan_gap = pan_gap);
echo(cell_under = cell_under, cell_top = cell_top, cell_loaded_y = cell_loaded_y, cell_fixed_y = cell_fixed_y);
echo(fixed_pair = [cell_fixed_y - loaded_centre, fixed_pair_y], loaded_pair_y = cell_loaded_y + loaded_centre);
echo(stop_lowest = stop_lowest, stop_highest = stop_highest, stop_set = stop_set, stop_gap = stop_gap);
echo(stop_tip = stop_set - stop_screw_len, base_bottom = 0, stop_relief_d = stop_screw_d + 1);
echo(stop_nut_top = base_t + stop_boss_h, stop_nut_bottom = base_t + stop_boss_h - stop_nut_h - 0.2);
echo(post_hole = post_size + [2 * post_clear, 2 * post_clear], post_size = post_size);
echo(seat_under = case_h + seat_lift, lid_top = case_h);
echo(pi_holes = [for (p = pi[1]) pi_at(p)], pi_board = pi_board);
echo(inner_x = case_w / 2 - wall, cell_half_w = cell_size[1] / 2);
echo(socket_xs = socket_xs(station_count), socket_z = socket_z, wall_h = case_h - base_t - lid_t);
echo(buttons = [for (x = button_xs) [x, front_strip / 2]], button_depth = button_depth);
echo(lid_under = case_h - lid_t);
