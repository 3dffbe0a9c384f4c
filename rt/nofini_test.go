package rt

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestNoFiniRecord: a binary that ends without Fini has its record
// written when NoFini runs (nothing found yet, status 0) and again after a
// report (the status Fini would choose), marked "ended": false.
func TestNoFiniRecord(t *testing.T) {
	registerTestSites()
	dir := t.TempDir()
	e := newEnv(t, "report_dir="+dir)
	read := func() (rec struct {
		Status    int
		DataRaces int `json:"data_races"`
		Ended     *bool
	}) {
		b, err := os.ReadFile(filepath.Join(dir, strconv.Itoa(os.Getpid())+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &rec); err != nil {
			t.Fatalf("%v\n%s", err, b)
		}
		return rec
	}
	e.rep.noFini()
	if r := read(); r.Status != 0 || r.DataRaces != 0 || r.Ended == nil || *r.Ended {
		t.Errorf("at NoFini: %+v", r)
	}
	var a int64
	racyLoop(e, &a)
	if r := read(); r.Status != 66 || r.DataRaces != 1 || r.Ended == nil || *r.Ended {
		t.Errorf("after the report: %+v", r)
	}
}
