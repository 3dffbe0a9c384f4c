package analysis

import "testing"

func row(k int64, kv ...any) ineq {
	r := ineq{coef: map[string]int64{}, k: k}
	for i := 0; i < len(kv); i += 2 {
		r.coef[kv[i].(string)] = int64(kv[i+1].(int))
	}
	return r
}

// TestFeasible checks the elimination against systems whose answer is
// known, among them the mirror writes of a triangle and a system feasible
// over the rationals only.
func TestFeasible(t *testing.T) {
	tests := []struct {
		name string
		rows []ineq
		want bool
	}{
		{"empty", nil, true},
		{"constant false", []ineq{row(-1)}, false},
		{"x ≥ 0, x ≤ 5", []ineq{row(0, "x", 1), row(5, "x", -1)}, true},
		{"x ≥ 3, x ≤ 2", []ineq{row(-3, "x", 1), row(2, "x", -1)}, false},
		// 2x = 1 has a rational solution only: tightening finds none.
		{"2x = 1", []ineq{row(-1, "x", 2), row(1, "x", -2)}, false},
		// Rows i1 < i2 of the triangle j ≥ i, the mirror: (i1, j1) = (j2, i2).
		{"mirror", []ineq{
			row(-1, "i2", 1, "i1", -1),                           // i1 ≤ i2 - 1
			row(0, "j1", 1, "i1", -1),                            // j1 ≥ i1
			row(0, "j2", 1, "i2", -1),                            // j2 ≥ i2
			row(0, "i1", 1, "j2", -1), row(0, "j2", 1, "i1", -1), // i1 = j2
			row(0, "j1", 1, "i2", -1), row(0, "i2", 1, "j1", -1), // j1 = i2
		}, false},
		// The same rows without the triangle: (0, 1) and (1, 0) meet.
		{"square", []ineq{
			row(-1, "i2", 1, "i1", -1),
			row(0, "i1", 1, "j2", -1), row(0, "j2", 1, "i1", -1),
			row(0, "j1", 1, "i2", -1), row(0, "i2", 1, "j1", -1),
			row(0, "i1", 1), row(0, "i2", 1), row(0, "j1", 1), row(0, "j2", 1),
			row(-1, "m", 1, "i1", -1), row(-1, "m", 1, "i2", -1),
			row(-1, "m", 1, "j1", -1), row(-1, "m", 1, "j2", -1),
		}, true},
	}
	for _, tt := range tests {
		if got := feasible(tt.rows); got != tt.want {
			t.Errorf("%s: feasible = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestFeasibleOverflow: coefficients that would overflow give up
// (feasible), never a wrong "infeasible".
func TestFeasibleOverflow(t *testing.T) {
	big := int64(1) << 62
	rows := []ineq{{coef: map[string]int64{"x": big, "y": 3}, k: 0}, {coef: map[string]int64{"x": -big + 1, "y": 5}, k: -1}, {coef: map[string]int64{"y": -1}, k: -1}}
	if !feasible(rows) {
		t.Fatal("overflowing system reported infeasible")
	}
}
