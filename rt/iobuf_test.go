package rt

import (
	"bytes"
	"crypto/hmac"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"hash/adler32"
	"hash/crc32"
	"hash/crc64"
	"hash/fnv"
	"hash/maphash"
	"io"
	"os"
	"strings"
	"testing"
)

// countingWriter reads nothing of what is written to it.
type countingWriter struct{ n int }

func (c *countingWriter) Write(p []byte) (int, error) { c.n += len(p); return len(p), nil }

// TestIOBufferKinds checks which dynamic types ReadInto and WriteFrom
// check: the standard library's readers, writers and hashes (whose types
// New returns from internal packages: the list must follow them), and
// not io.Discard or a type of the program's.
func TestIOBufferKinds(t *testing.T) {
	for _, w := range []io.Writer{
		crc32.NewIEEE(), crc64.New(crc64.MakeTable(crc64.ISO)), adler32.New(), fnv.New64a(), &maphash.Hash{},
		md5.New(), sha1.New(), sha256.New(), sha512.New(), hmac.New(sha256.New, []byte("k")),
		&bytes.Buffer{}, &strings.Builder{}, os.Stderr,
	} {
		if !readsBuffer(w) {
			t.Errorf("%T: its Write reads p, not checked", w)
		}
	}
	for _, w := range []io.Writer{io.Discard, &countingWriter{}, nil} {
		if readsBuffer(w) {
			t.Errorf("%T: its Write may read nothing, checked", w)
		}
	}
	for _, r := range []io.Reader{os.Stdin, &bytes.Buffer{}, bytes.NewReader(nil), strings.NewReader("")} {
		if !fillsBuffer(r) {
			t.Errorf("%T: its Read writes p[:n], not checked", r)
		}
	}
	if fillsBuffer(io.LimitReader(strings.NewReader("x"), 1)) {
		t.Error("io.LimitedReader: its Read is its reader's, checked")
	}
}

// TestIOBufferChecks checks that ReadInto writes p[:n] only and WriteFrom
// reads it, against a goroutine's unordered accesses.
func TestIOBufferChecks(t *testing.T) {
	root, e := hbTestRoot(t, "", io.Discard)
	p := make([]byte, 8)
	done := make(chan bool)
	hbGo(root, func(g *Task) {
		*W(g, &p[6], 1) = 1 // past what the Read writes
		_ = *R(g, &p[1], 2)
		done <- true // not hooked
	})
	<-done
	n, err := ReadInto(root, strings.NewReader("abc"), p, 3)
	if n != 3 || err != nil {
		t.Fatalf("ReadInto returned %d, %v", n, err)
	}
	if got := races(e); got != 1 {
		t.Fatalf("%d races reported after a Read of 3 bytes, want 1 (p[1])", got)
	}
	if _, err := WriteFrom(root, crc32.NewIEEE(), p, 4); err != nil {
		t.Fatal(err)
	}
	if got := races(e); got != 2 {
		t.Fatalf("%d races reported after a hash read all of p, want 2 (p[6] too)", got)
	}
}
