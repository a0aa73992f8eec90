import Foundation
import PrismSupport
import Testing

@Suite("Decoding errors as sentences")
struct DecodingErrorTextTests {
    struct Book: Decodable {
        struct Chapter: Decodable { let title: String }
        let author: String
        let chapters: [Chapter]
    }

    func failure(_ json: String) -> any Error {
        do {
            _ = try JSONDecoder().decode(Book.self, from: Data(json.utf8))
            Issue.record("\(json) decoded")
            return CancellationError()
        } catch {
            return error
        }
    }

    @Test("a missing key, a wrong type, a null and broken JSON each name what and where")
    func sentences() {
        #expect(DecodingErrorText.describe(failure(#"{"chapters": []}"#)) == #"no value for key "author"."#)
        #expect(
            DecodingErrorText.describe(failure(#"{"author": "A", "chapters": [{"title": "x"}, {}]}"#))
                == #"no value for key "title" at chapters.[1]."#)
        #expect(
            DecodingErrorText.describe(failure(#"{"author": 7, "chapters": []}"#))
                .hasPrefix("expected String at author: "))
        #expect(
            DecodingErrorText.describe(failure(#"{"author": null, "chapters": []}"#))
                == "expected String at author but found null.")
        #expect(DecodingErrorText.describe(failure("{")).hasPrefix("the data is not valid at the top level: "))
        #expect(DecodingErrorText.describe(CancellationError()) == "\(CancellationError())")
    }
}
