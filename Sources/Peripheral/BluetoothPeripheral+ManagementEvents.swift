import HAL

/// What each mgmt event about our controller means, and which part of the
/// peripheral handles it.
extension BluetoothPeripheral {
    func handle(_ event: ManagementEvent) {
        switch event {
        case .deviceConnected(let address, let type, _, _):
            logger.debug("mgmt: \(address) (\(type)) connected")
        case .deviceDisconnected(let address, let type, let reason):
            guard type != .bredr else { return }
            logger.info("phone \(address) disconnected: \(reason)")
            if reason == .authenticationFailure, keyStore.isBonded(address), !pairing.userRejected { bonds.removeStale(address, type) }
            // One phone at a time: any LE disconnect is our link's. Without a
            // link (the phone dropped before the ATT channel was accepted) the
            // controller still stopped advertising when it connected: restart it.
            linkWentDown(reason, hadLink: link != nil)
        case .userConfirmationRequest(let address, let type, let hint, let value):
            pairing.requested(by: address, type, confirmHint: hint, value: value)
        case .newLongTermKey(let storeHint, let key):
            guard storeHint else {
                logger.info("pairing with \(key.address) finished without bonding (not stored)")
                return
            }
            bonds.save(key)
        case .newIdentityResolvingKey(let storeHint, _, let key):
            if storeHint { bonds.save(key) }
        case .authenticationFailed(let address, let type, let status):
            let s = ManagementStatus(rawValue: status).map { "\($0)" } ?? "0x\(String(status, radix: 16))"
            logger.warning("authentication with \(address) failed: \(s)")
            pairing.end()
            link?.securityRequestFailed()
            // A bonded phone that fails to encrypt forgot the watch, unless
            // the user just said no to pairing it again.
            if keyStore.isBonded(address) && !pairing.userRejected { bonds.removeStale(address, type) }
        case .deviceUnpaired(let address, _):
            bonds.unpaired(address)
        case .newSettings(let s):
            logger.debug("hci\(hci) settings: \(s)")
            // Our own set-up's changes are not echoed to us (the kernel skips
            // the socket that asked), and set-up ignores this anyway.
            if s.contains(.powered) { adapterReturned("powered on again") } else { adapterLost(.poweredOff) }
        case .indexAdded:
            adapterReturned("index added")
        case .indexRemoved:
            adapterLost(.removed)
        default:
            break
        }
    }
}
