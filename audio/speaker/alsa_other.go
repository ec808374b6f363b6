//go:build !linux || !cgo || android

package speaker

// quietALSA: only Linux's libasound prints on its own.
func quietALSA() {}
