package rt

import "slices"

// interval is a closed range [lo, hi] of block tags; lo > hi is empty.
type interval struct{ lo, hi uint64 }

// inIntervals reports whether x lies in one of the sorted, disjoint
// intervals of s: a binary search, O(log len(s)).
func inIntervals(s []interval, x uint64) bool {
	i, j := 0, len(s)
	for i < j {
		h := int(uint(i+j) >> 1)
		if s[h].lo <= x {
			i = h + 1
		} else {
			j = h
		}
	}
	return i > 0 && x <= s[i-1].hi
}

// mergeIntervals returns a new sorted list of disjoint, non-adjacent
// intervals covering the union of its arguments. It never modifies them, so
// lists can be shared between tasks copy-on-write.
func mergeIntervals(lists ...[]interval) []interval {
	n := 0
	for _, l := range lists {
		n += len(l)
	}
	all := make([]interval, 0, n)
	for _, l := range lists {
		for _, iv := range l {
			if iv.lo <= iv.hi {
				all = append(all, iv)
			}
		}
	}
	slices.SortFunc(all, func(a, b interval) int {
		switch {
		case a.lo < b.lo:
			return -1
		case a.lo > b.lo:
			return 1
		}
		return 0
	})
	out := all[:0]
	for _, iv := range all {
		if k := len(out) - 1; k >= 0 && iv.lo <= out[k].hi+1 {
			out[k].hi = max(out[k].hi, iv.hi)
			continue
		}
		out = append(out, iv)
	}
	return slices.Clip(out)
}
