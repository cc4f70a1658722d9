// What run() must see, in every consumer of the matrix.
export function expectedResults(id: string): Record<string, unknown> {
  return {
    storedId: true,
    sentId: id,
    param: { status: 200, body: { _id: id, price: '9.99', isObjectId: true } },
    badParam: {
      status: 422,
      body: {
        statusCode: 422,
        message: 'Validation failed (ObjectId is expected): "abc" is 3 characters long, expected 24 hex characters',
        error: 'Unprocessable Entity',
      },
    },
    body: { status: 201, body: { customerId: id, isObjectId: true, number: 'ORD-0001' } },
    secondBody: { status: 201, body: { customerId: id, isObjectId: true, number: 'ORD-0002' } },
    badBody: {
      status: 400,
      body: { statusCode: 400, message: ['customerId must be a 24-character hex ObjectId'], error: 'Bad Request' },
    },
  };
}
