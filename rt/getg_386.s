#include "textflag.h"

// func getg() unsafe.Pointer: the calling goroutine's g.
TEXT ·getg(SB), NOSPLIT, $0-4
	// get_tls and g() of the runtime's go_tls.h, spelt out.
	MOVL TLS, CX
	MOVL 0(CX)(TLS*1), AX
	MOVL AX, ret+0(FP)
	RET
