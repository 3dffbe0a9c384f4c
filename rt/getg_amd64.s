#include "textflag.h"

// func getg() unsafe.Pointer: the calling goroutine's g.
TEXT ·getg(SB), NOSPLIT, $0-8
	// get_tls and g() of the runtime's go_tls.h, spelt out.
	MOVQ TLS, CX
	MOVQ 0(CX)(TLS*1), AX
	MOVQ AX, ret+0(FP)
	RET
