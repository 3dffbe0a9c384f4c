package soundfuzz

import "testing"

// TestGenerateEveryFamily simulates and renders a few programs of every
// family: the simulation accepts them and every access gets a site.
func TestGenerateEveryFamily(t *testing.T) {
	for f := range families {
		for _, tail := range [][]byte{nil, {1, 2, 3, 4, 5, 6, 7, 8, 9}, {200, 17, 3, 99, 5, 250, 7, 1}} {
			data := append([]byte{byte(f)}, tail...)
			p, err := Build(data, "p000", modPath)
			if err != nil {
				t.Fatalf("%v: %v", data, err)
			}
			if p.Family != families[f].name {
				t.Fatalf("%v: family %s, want %s", data, p.Family, families[f].name)
			}
		}
	}
}
