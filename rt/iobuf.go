package rt

import (
	"bytes"
	"io"
	"os"
	"reflect"
	"strings"
)

// The buffers of readers and writers of the standard library. f.Read(p)
// writes p[:n] and w.Write(p) reads p[:n]: the race detector sees it in
// the system call (syscall.Read does WriteRange(p, n)) or in the package's
// own code (bytes.Buffer.Read's copy, crc32's loop), a source rewriter
// only at the call. The rewriter makes r.Read(p) _ga_rt.ReadInto(t, r, p,
// site) when r's method is the standard library's or an interface's, and
// rt checks p[:n] after the call when the value's dynamic type is one of
// the standard library's known to do so. Any other type's method is
// either rewritten (it checks its own accesses) or unknown, and may use
// less of p than n says (io.Discard reads nothing): not checked, so that
// nothing is reported that the program does not do.

// readInto is ReadInto.
func readInto(t *Task, r io.Reader, p []byte, site Site) (int, error) {
	n, err := r.Read(p)
	if fillsBuffer(r) {
		WriteAll(t, p[:clampN(n, len(p))], site)
	}
	return n, err
}

// readAtInto is ReadAtInto.
func readAtInto(t *Task, r io.ReaderAt, p []byte, off int64, site Site) (int, error) {
	n, err := r.ReadAt(p, off)
	if fillsBuffer(r) {
		WriteAll(t, p[:clampN(n, len(p))], site)
	}
	return n, err
}

// writeFrom is WriteFrom.
func writeFrom(t *Task, w io.Writer, p []byte, site Site) (int, error) {
	n, err := w.Write(p)
	if readsBuffer(w) {
		ReadAll(t, p[:clampN(n, len(p))], site)
	}
	return n, err
}

// writeAtFrom is WriteAtFrom.
func writeAtFrom(t *Task, w io.WriterAt, p []byte, off int64, site Site) (int, error) {
	n, err := w.WriteAt(p, off)
	if readsBuffer(w) {
		ReadAll(t, p[:clampN(n, len(p))], site)
	}
	return n, err
}

// clampN is n within [0, limit]: a broken reader's count never slices out
// of range here (its caller sees the count as it was).
func clampN(n, limit int) int { return min(max(n, 0), limit) }

// fillsBuffer reports whether r's Read and ReadAt write the first n bytes
// of their buffer, n being the count they return: the standard library's
// files and in-memory readers.
func fillsBuffer(r any) bool {
	switch r.(type) {
	case *os.File, *bytes.Buffer, *bytes.Reader, *strings.Reader:
		return true
	}
	return false
}

// readsBuffer reports whether w's Write and WriteAt read the first n
// bytes of their buffer: the standard library's files, in-memory writers
// and hashes (a hash.Hash's Write adds all of p to the hash and returns
// len(p)).
func readsBuffer(w any) bool {
	switch w.(type) {
	case *os.File, *bytes.Buffer, *strings.Builder:
		return true
	case nil:
		return false
	}
	typ := reflect.TypeOf(w)
	if typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	return stdHashes[typ.PkgPath()]
}

// stdHashes are the standard library's packages whose types implement
// hash.Hash (the exported ones and those their New functions return).
var stdHashes = map[string]bool{
	"hash/adler32": true, "hash/crc32": true, "hash/crc64": true, "hash/fnv": true, "hash/maphash": true,
	"crypto/md5": true, "crypto/sha1": true, "crypto/sha256": true, "crypto/sha512": true, "crypto/sha3": true,
	"crypto/hmac": true, "crypto/internal/fips140/sha256": true, "crypto/internal/fips140/sha512": true,
	"crypto/internal/fips140/sha3": true, "crypto/internal/fips140/hmac": true,
}
