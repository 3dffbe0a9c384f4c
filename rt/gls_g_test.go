//go:build wasm || amd64 || 386 || arm || arm64 || loong64 || mips || mipsle || mips64 || mips64le || ppc64 || ppc64le || riscv64 || s390x

package rt

// setFast switches between naming goroutines by g and by goid, for tests;
// only while nothing is attached.
func setFast(on bool) { gFast = on }
