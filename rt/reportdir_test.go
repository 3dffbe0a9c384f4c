package rt

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestReportDirRecord checks the record goanomaly test reads: the exit
// status Fini chose, the counts, the working directory.
func TestReportDirRecord(t *testing.T) {
	registerTestSites()
	dir := t.TempDir()
	e := newEnv(t, "report_dir="+dir)
	var a int64
	racyLoop(e, &a)
	if code := e.rep.finish(0); code != 66 {
		t.Fatalf("exit status %d", code)
	}
	b, err := os.ReadFile(filepath.Join(dir, strconv.Itoa(os.Getpid())+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Pid, Ppid, Status int
		Dir               string
		Stderr            bool
		DataRaces         int            `json:"data_races"`
		ByKind            map[string]int `json:"by_kind"`
		Constructs        int
	}
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	wd, _ := os.Getwd()
	if rec.Pid != os.Getpid() || rec.Ppid != os.Getppid() || rec.Status != 66 || rec.Dir != wd || !rec.Stderr ||
		rec.DataRaces != 1 || rec.ByKind["WRITE-WRITE"] != 1 || rec.Constructs != 1 {
		t.Errorf("record: %s", b)
	}
}
