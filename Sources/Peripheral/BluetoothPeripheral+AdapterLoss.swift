import HAL
import Loop

/// The adapter going away while the watch runs and coming back: what that
/// means for the link, the listener and advertising. When and for how long
/// is `lossWatch`'s bookkeeping.
extension BluetoothPeripheral {
    /// The adapter went away: drop the link and the listener, report it, and
    /// wait (bounded) for it to come back. Ignored before start-up finished
    /// (its commands fail on their own) and once stopped or failed.
    func adapterLost(_ loss: AdapterLoss) {
        switch state {
        case .stopped, .failed: return
        case .adapterLost:
            // Removed again while being set up: stop that set-up; the deadline
            // stays. Powered off while being set up is ignored: our own Set
            // Powered off is not echoed to us by the kernel, but if it were it
            // must not stop the set-up that powers the adapter on again.
            guard lossWatch.isSettingUp, loss == .removed else { return }
            cancelRecovery()
            logger.error("Bluetooth adapter hci\(hci) \(loss) again while it was being set up")
            state = .adapterLost(loss)
            return
        case .advertising, .connected, .encrypted: break
        }
        lossWatch.startWaiting(upTo: options.adapterLossTimeout)
        logger.error("Bluetooth adapter hci\(hci) \(loss): no phone link until it is back (waiting up to \(Self.seconds(options.adapterLossTimeout)))")
        closeListener()
        removeSecurityWatch()
        loop.disarm(readvertiseTimer)
        advertisingConfigured = false  // a new adapter has none; ours is added again on return
        pairing.end()
        let hadLink = link != nil
        forgetLink()
        state = .adapterLost(loss)
        if hadLink { onDisconnected?(.localHost) }
        onAdapterLost?(loss)
    }

    /// The adapter is there again: the whole controller set-up runs again
    /// (power, LE, bondable, SC, IO capability, privacy, keys from the bond
    /// store), then listening and advertising.
    func adapterReturned(_ how: String) {
        guard case .adapterLost = state, !lossWatch.isSettingUp, let controller, let configuration else { return }
        let attempt = lossWatch.beginSetUp()
        logger.notice("Bluetooth adapter hci\(hci) is back (\(how)): setting it up again")
        controller.setUp(configuration, longTermKeys: keyStore.longTermKeys, irks: keyStore.irks) { [unowned(unsafe) self] outcome in
            guard self.lossWatch.isCurrent(attempt) else { return }
            let info: ControllerInfo
            switch outcome {
            case .failure(let e): return self.recoveryFailed(e)
            case .success(let i): info = i
            }
            do throws(BluetoothError) { try self.listen(on: info.address) } catch { return self.recoveryFailed(error) }
            controller.startAdvertising(self.advertisingPayload) { [unowned(unsafe) self] error in
                guard self.lossWatch.isCurrent(attempt) else { return }
                if let error { return self.recoveryFailed(error) }
                self.recovered()
            }
        }
    }

    private func recovered() {
        let away = lossWatch.returned()
        advertisingConfigured = true
        logger.notice("Bluetooth adapter hci\(hci) set up again after \(Self.seconds(away)) away: advertising as \"\(name)\"")
        state = .advertising
        onAdapterReturned?(away)
    }

    /// Setting the returned adapter up failed: keep waiting for the next
    /// return until the deadline.
    private func recoveryFailed(_ error: BluetoothError) {
        cancelRecovery()
        logger.warning("setting hci\(hci) up again failed: \(error); still waiting for the adapter")
    }

    private func cancelRecovery() {
        lossWatch.cancelSetUp()
        controller?.cancelSetUp()
        closeListener()
    }

    func adapterLossTimedOut() {
        guard case .adapterLost(let loss) = state else { return }
        cancelRecovery()
        fail("adapter hci\(hci) \(loss) and not back within \(Self.seconds(options.adapterLossTimeout))", hint: loss.hint)
    }

    /// Stops waiting for the adapter (it returned, or the peripheral stops / failed).
    func endAdapterLossWatch() {
        lossWatch.stopWaiting()
        loop.disarm(readvertiseTimer)
        if lossWatch.isSettingUp { cancelRecovery() }
    }

    /// "120 s", "10.032 s": for the log.
    static func seconds(_ d: Duration) -> String {
        let ms = d.millisecondsClamped
        let fraction = ms % 1000
        guard fraction != 0 else { return "\(ms / 1000) s" }
        let f = String(fraction)
        return "\(ms / 1000).\(String(repeating: "0", count: 3 - f.count) + f) s"
    }
}
