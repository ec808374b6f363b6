package remedy_test

import (
	"errors"
	"fmt"

	"wolftable/hw/remedy"
)

// A driver's error, as serve prints it: what to do, then the raw error.
func ExampleExplain() {
	err := errors.New("serial: open /dev/ttyACM0: Permission denied")
	fmt.Println(remedy.Explain(err))
	// Output: wolftable 使用者沒有權限使用序列埠（座位面板橋接板） /dev/ttyACM0：執行 sudo adduser wolftable dialout，再 sudo systemctl restart wolftable（在終端機以自己的帳號執行時，把 wolftable 換成你的帳號並重新登入）（原始錯誤：serial: open /dev/ttyACM0: Permission denied）
}
