package gocmd

import (
	"fmt"
	"strings"
)

// GOFLAGS returns the flags set by the GOFLAGS variable in env, split at
// spaces as the go command splits them. Each is -name or -name=value.
func GOFLAGS(env []string) []Arg {
	var args []Arg
	for _, w := range strings.Fields(Getenv(env, "GOFLAGS")) {
		name, value, hasValue, ok := flagWord(w)
		if !ok {
			continue // the go command reports it
		}
		if !hasValue {
			value = "true"
		}
		args = append(args, Arg{Words: []string{w}, Name: name, Value: value})
	}
	return args
}

// CheckGOFLAGS returns an error if GOFLAGS sets a flag that goanomaly refuses.
func CheckGOFLAGS(env []string) error {
	for _, a := range GOFLAGS(env) {
		if why := refused(a.Name); why != "" && a.Value != "false" {
			return fmt.Errorf("GOFLAGS sets -%s, which is not supported: %s", a.Name, why)
		}
	}
	return nil
}

// Effective returns the value the go command will use for flag name: the
// command line's if given there, else the one from GOFLAGS in env.
func (l *Line) Effective(name string, env []string) (string, bool) {
	if v, ok := l.Flag(name); ok {
		return v, true
	}
	v, ok := "", false
	for _, a := range GOFLAGS(env) {
		if a.Name == name {
			v, ok = a.Value, true
		}
	}
	return v, ok
}

// Getenv returns the last value of key in env, as os/exec resolves duplicates.
func Getenv(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val
		}
	}
	return v
}
