package gocmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
)

// Tool finds the go command: the one on PATH in env, else $GOROOT/bin/go.
func Tool(env []string) (string, error) {
	if p, err := exec.LookPath("go"); err == nil {
		return p, nil
	}
	if root := Getenv(env, "GOROOT"); root != "" {
		p := filepath.Join(root, "bin", "go")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", errors.New("cannot find the go command: it is not on PATH and GOROOT is not set")
}

// ExitCode returns the exit status of a command that ran and failed (128+n
// if it was killed by signal n), and ok=false for an error that is not an
// exit status (the command could not be started).
func ExitCode(err error) (code int, ok bool) {
	if err == nil {
		return 0, true
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return 0, false
	}
	if ws, isWS := ee.Sys().(syscall.WaitStatus); isWS && ws.Signaled() {
		return 128 + int(ws.Signal()), true
	}
	return ee.ExitCode(), true
}

// Env runs "go env -json" for keys in dir with env and returns the values.
func Env(ctx context.Context, gotool, dir string, env []string, keys ...string) (map[string]string, error) {
	cmd := exec.CommandContext(ctx, gotool, append([]string{"env", "-json"}, keys...)...)
	cmd.Dir, cmd.Env = dir, env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go env: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	vals := map[string]string{}
	if err := json.Unmarshal(out, &vals); err != nil {
		return nil, fmt.Errorf("go env: %v", err)
	}
	return vals, nil
}
