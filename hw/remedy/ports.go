package remedy

import "go.bug.st/serial/enumerator"

// listPorts is the machine's USB serial devices, as the bridge driver
// looks for them.
func listPorts() ([]Port, error) {
	ps, err := enumerator.GetDetailedPortsList()
	if err != nil {
		return nil, err
	}
	var out []Port
	for _, p := range ps {
		if p.IsUSB {
			out = append(out, Port{Name: p.Name, VID: p.VID, PID: p.PID, Product: p.Product})
		}
	}
	return out, nil
}
