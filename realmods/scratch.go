package main

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// downloaded is what go mod download -json says of one module.
type downloaded struct {
	Version, Dir, Error string
}

// download fetches path@version into the module cache with the go command
// and returns where it is. The cache is only read afterwards. It runs in
// work, outside any module, so no go.mod or go.sum is touched.
func download(ctx context.Context, o *options, work, path, version string) (*downloaded, error) {
	res := runCmd(ctx, o, work, env, "go", "mod", "download", "-json", path+"@"+version)
	var d downloaded
	if err := json.Unmarshal(res.out, &d); err != nil || d.Dir == "" {
		msg := strings.TrimSpace(string(res.out))
		if d.Error != "" {
			msg = d.Error
		}
		if res.timedOut {
			msg = "timed out after " + o.timeout.String()
		}
		return nil, fmt.Errorf("go mod download %s@%s: %s%s", path, version, msg, proxyHint(msg))
	}
	return &d, nil
}

// proxyHint explains the errors that mean the module proxy is not reached.
func proxyHint(msg string) string {
	for _, s := range []string{"dial tcp", "no such host", "connection refused", "i/o timeout", "timed out", "TLS handshake", "GOPROXY=off", "network is unreachable"} {
		if strings.Contains(msg, s) {
			return fmt.Sprintf(" (the module proxy is not reachable: GOPROXY=%s; this harness needs it)", goEnv("GOPROXY"))
		}
	}
	return ""
}

// copyTree copies the regular files of src into dst, writable (the module
// cache's files are read-only, and the copy is ours to change).
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// testdataDir is realmods/testdata, found from the working directory (the
// repository root, as make realmods runs it, or realmods itself).
func testdataDir() (string, error) {
	for _, d := range []string{"realmods/testdata", "testdata"} {
		if fi, err := os.Stat(filepath.Join(d, userModule.name)); err == nil && fi.IsDir() {
			return filepath.Abs(d)
		}
	}
	return "", fmt.Errorf("realmods/testdata not found: run from the repository root (make realmods)")
}

// treeDigest lists every file of dir with the hash of its content, to tell
// whether a command changed the tree.
func treeDigest(dir string) (string, error) {
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %x\n", p, sha256.Sum256(data))
		return nil
	})
	return b.String(), err
}
