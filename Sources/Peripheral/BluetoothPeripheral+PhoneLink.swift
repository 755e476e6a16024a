import HAL
import Loop

/// The phone's side: the listener on the ATT channel, one phone's link at a
/// time, that link's security, and advertising again once it is gone.
extension BluetoothPeripheral {
    /// Listens on the ATT channel at the controller's address.
    func listen(on address: BluetoothAddress) throws(BluetoothError) {
        guard let makeListener else { throw BluetoothError("no link listener (not started)") }
        do throws(HALError) {
            let listener = try makeListener(address)
            self.listener = listener
            listenerSource = try loop.addSource(fd: listener.pollDescriptor, events: .readable) { [unowned(unsafe) self] _ in self.acceptWaiting() }
        } catch {
            closeListener()
            throw BluetoothError(error)
        }
    }

    func closeListener() {
        if let s = listenerSource { loop.removeSource(s) }
        listenerSource = nil
        listener?.close()
        listener = nil
    }

    private func acceptWaiting() {
        while let listener {
            let accepted: (any BluetoothLink)?
            do { accepted = try listener.acceptLink() } catch {
                logger.warning("accept failed: \(error)")
                return
            }
            guard let newLink = accepted else { return }
            if link != nil {
                logger.notice("\(newLink.peerAddress) connected while another phone is connected: closing (one phone at a time)")
                newLink.close()
                continue
            }
            adopt(newLink)
        }
    }

    private func adopt(_ newLink: any BluetoothLink) {
        link = newLink
        pairing.linkOpened()
        logger.info("phone \(newLink.peerAddress) (\(newLink.peerAddressType)) connected\(keyStore.isBonded(newLink.peerAddress) ? " (bonded)" : "")")
        state = .connected(newLink.peerAddress)
        // One phone at a time: no advertising while connected.
        controller?.stopAdvertising { [logger] e in if let e { logger.warning("\(e)") } }
        newLink.securityObserver = { [unowned(unsafe) self] level in self.securityChanged(level) }
        newLink.securityRequestStarted = { [unowned(unsafe) self] in self.watchSecurity() }
        onConnection?(newLink)
        if keyStore.isBonded(newLink.peerAddress) && newLink.securityLevel < .encrypted {
            // A bonded phone: ask for encryption with the stored key right away
            // (a Security Request); a phone that lost the key fails here (stale bond).
            do { try newLink.requestSecurity(.encrypted) } catch { logger.warning("\(error)") }
        }
    }

    /// A security request is under way: the kernel says it ended by making
    /// the link's socket writable again (docs/bluetooth.md, "Link security").
    private func watchSecurity() {
        guard securitySource == nil, let link else { return }
        let fd = link.securityWatchDescriptor
        guard fd >= 0 else { return }
        securitySource = try? loop.addSource(fd: fd, events: .writable) { [unowned(unsafe) self] _ in
            if self.link?.pollSecurity() ?? true { self.removeSecurityWatch() }
        }
    }

    func removeSecurityWatch() {
        if let s = securitySource { loop.removeSource(s) }
        securitySource = nil
    }

    private func securityChanged(_ level: LinkSecurityLevel) {
        removeSecurityWatch()
        guard let link else { return }
        logger.info("link to \(link.peerAddress): security \(level)")
        if level >= .encrypted { state = .encrypted(link.peerAddress, level) }
    }

    /// The link is no longer ours: its callbacks are taken back.
    func forgetLink() {
        link?.securityObserver = nil
        link?.securityRequestStarted = nil
        link = nil
    }

    func linkWentDown(_ reason: DisconnectReason, hadLink: Bool) {
        removeSecurityWatch()
        pairing.end()
        forgetLink()
        if hadLink { onDisconnected?(reason) }
        readvertiseRetried = false
        advertiseAgain()
    }

    /// Advertising after a disconnect. A failure is retried once, a moment
    /// later: when another program powers the adapter off, the link drops
    /// just before the New Settings that says so, and this command may fail
    /// in between.
    func advertiseAgain() {
        guard let controller, listener != nil, link == nil else { return }
        controller.startAdvertising(advertisingPayload) { [unowned(unsafe) self] e in
            guard self.listener != nil else { return }  // lost or stopped meanwhile
            if let e {
                if self.readvertiseRetried { return self.fail("cannot advertise again: \(e)") }
                self.readvertiseRetried = true
                self.logger.warning("advertising again failed (\(e)); retrying in 2 s")
                self.loop.arm(self.readvertiseTimer, after: .seconds(2))
            } else if self.link == nil {
                self.state = .advertising
            }
        }
    }
}
