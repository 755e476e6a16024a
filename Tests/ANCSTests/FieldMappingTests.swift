import Notifications
import Testing

@testable import ANCS

/// The neutral text fields and ANCS's attribute IDs come from one mapping
/// (`NotificationField.bitIndex`): a field's bit, its attribute and the
/// field an attribute ID names all agree.
@Suite struct FieldMappingTests {
    @Test func everyFieldRoundTripsThroughItsAttribute() {
        let expected: [(NotificationField, NotificationAttributeID)] = [
            (.appIdentifier, .appIdentifier), (.title, .title), (.subtitle, .subtitle), (.message, .message),
            (.positiveActionLabel, .positiveActionLabel), (.negativeActionLabel, .negativeActionLabel),
        ]
        #expect(expected.count == NotificationField.allCases.count)
        for (field, attribute) in expected {
            #expect(field.attributeID == attribute)
            #expect(NotificationField(attribute: attribute.rawValue) == field)
            #expect(field.bit == NotificationFields(attribute: attribute.rawValue))
        }
    }

    @Test func attributesWithoutATextFieldHaveNone() {
        for id: UInt8 in [4, 5, 8, 9, 0x7F, 0xFF] {
            #expect(NotificationField(attribute: id) == nil)
        }
        #expect(NotificationFields(attribute: 4) == .messageSize)
        #expect(NotificationFields(attribute: 5) == .date)
    }
}
