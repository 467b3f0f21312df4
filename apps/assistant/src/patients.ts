import { complaint, entityIn, slotStep, type PatientScript } from './patient-script.ts';

const COUGH_ANSWER = 'No cough, but my glands feel swollen and I have chills';

/** The demo patients: HPI slots, a boolean and an optional slot, every purpose, reword, normalise, priority and RPA jobs. */
export const PATIENTS: readonly PatientScript[] = [
  {
    id: 'headache',
    name: { given: 'Maya', family: 'Okafor' },
    tenant: 'acme-clinic',
    steps: [
      slotStep(
        'chief complaint',
        {
          code: 'chief_complaints',
          description: 'chief complaint',
          multiplicity: '1..*',
          related: ['onset', 'associated_sx'],
          intent: 'hpi',
        },
        () => 'What brings you in today?',
        () => "I've had a pounding headache since yesterday morning",
      ),
      slotStep(
        'onset',
        { code: 'onset', description: 'onset' },
        (m) => `When did your ${complaint(m, 'headache')} start?`,
        () => 'It started yesterday around 8 in the morning, after I woke up',
      ),
      slotStep(
        'associated symptoms',
        { code: 'associated_sx', description: 'associated symptoms', multiplicity: '0..*' },
        (m) => `Any other symptoms along with the ${complaint(m, 'headache')}?`,
        () => 'I feel a bit sick and bright light hurts my eyes',
      ),
      slotStep(
        'fever',
        {
          code: 'fever',
          description: 'fever',
          dataType: 'boolean',
          multiplicity: '1..1',
          purpose: null,
        },
        () => 'Have you had a fever?',
        () => "No, I haven't had a fever",
      ),
      slotStep(
        'anything else',
        {
          code: 'additional_info',
          description: 'anything else',
          multiplicity: '0..1',
          purpose: null,
        },
        () => 'Is there anything else you would like the doctor to know?',
        () => 'I get migraines sometimes but this feels different',
      ),
    ],
  },
  {
    id: 'sore-throat',
    name: { given: 'Tomas', family: 'Lindqvist' },
    tenant: 'acme-clinic',
    steps: [
      slotStep(
        'chief complaint',
        { code: 'chief_complaints', description: 'chief complaint', multiplicity: '1..*' },
        () => 'What brings you in today?',
        () => 'My throat is really sore and it hurts to swallow',
      ),
      slotStep(
        'verify duration',
        {
          code: 'onset',
          description: 'onset',
          purpose: 'verify-answered',
          // The assistant thinks it was answered: the technician checks, starting from nothing.
          entities: [entityIn('About three days now', 'About three days', 'onset')],
        },
        (m) => `How long have you had the ${complaint(m, 'sore throat')}?`,
        () => 'About three days now',
      ),
      slotStep(
        'annotate only',
        {
          code: 'associated_sx',
          description: 'associated symptoms',
          multiplicity: '0..*',
          purpose: 'annotate-only',
          // Annotate-only hides the symptoms the language services found; the location shows.
          entities: [
            entityIn(COUGH_ANSWER, 'glands feel swollen', 'sx'),
            entityIn(COUGH_ANSWER, 'glands', 'location'),
            entityIn(COUGH_ANSWER, 'chills', 'nlp_sx'),
          ],
        },
        () => 'Do you have a cough or a runny nose?',
        () => COUGH_ANSWER,
      ),
      slotStep(
        'small talk',
        {
          code: 'additional_info',
          description: 'anything else',
          multiplicity: '0..1',
          // The patient chats off topic: the assistant lets the technician tell it to forget the
          // message (the custom exception event, 'suggest_forget') rather than escalate it.
          exceptionLabel: 'Not about health',
        },
        () => 'Is there anything else you would like the doctor to know?',
        () => 'Not really. Did you see the match last night? What a finish!',
      ),
    ],
  },
  {
    id: 'tummy',
    name: { given: 'Priya', family: 'Raman' },
    tenant: 'harbour-health',
    steps: [
      slotStep(
        'current complaint',
        { code: 'current_complaint', description: 'current complaint' },
        () => 'How can we help today?',
        () => 'I have a tummy ache on the right side and I was throwing up last night',
      ),
      slotStep(
        'patient description',
        { code: 'patient_description', description: 'patient description' },
        (m) => `How would you describe the ${complaint(m, 'tummy ache')} in your own words?`,
        () => 'A sharp stabbing pain that comes and goes, worse when I move',
      ),
      {
        name: 'reword',
        queue: 'federated',
        type: 'message.annotation.job',
        build: (memory) => ({
          quinnLastTurn: { content: 'How can we help today?' },
          lastTurn: {
            content: 'I have a tummy ache on the right side and I was throwing up last night',
          },
          slotSpecification: {
            code: 'current_complaint',
            short_description: 'current complaint',
            data_type: 'text',
            multiplicity: '1..1',
          },
          slot: { id: 'slot-current_complaint', code: 'current_complaint' },
          job: { purpose: 'reword' },
          entity: { extract: complaint(memory, 'tummy ache'), category: 'current_complaint' },
        }),
      },
      {
        name: 'normalise',
        queue: 'federated',
        type: 'message.annotation.job',
        build: (memory) => ({
          quinnLastTurn: { content: 'How can we help today?' },
          lastTurn: {
            content: 'I have a tummy ache on the right side and I was throwing up last night',
          },
          job: { purpose: 'normalise' },
          entity: {
            extract: complaint(memory, 'tummy ache'),
            category: 'sx',
            concepts: [],
            normalised: false,
            negated: false,
            presence: 'endorse',
          },
        }),
      },
      slotStep(
        'optional pain score',
        {
          code: 'pain_score',
          description: 'pain score',
          multiplicity: '0..1',
          enums: ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10'],
          // The patient is unsure: Exception offers other wordings of the question.
          rephrase: [
            'Would you call the pain mild, moderate or severe?',
            'Does the pain stop you doing your usual activities?',
          ],
        },
        () => 'On a scale of 1 to 10, how bad is the pain?',
        () => "I'm not sure, maybe a 7",
      ),
    ],
  },
  {
    id: 'two-complaints',
    name: { given: 'Grace', family: 'Mbeki' },
    tenant: 'acme-clinic',
    steps: [
      {
        name: 'agenda',
        queue: 'federated',
        type: 'intent.classification.job',
        build: () => ({
          quinnLastTurn: { content: 'What would you like to talk about today?' },
          lastTurn: { content: "I need a repeat of my inhaler and I've also got a rash on my arm" },
          job: { purpose: 'full' },
        }),
      },
      {
        name: 'priority',
        queue: 'priority',
        type: 'intent.hpi.priority.job',
        priority: 5,
        build: () => ({
          priority: 'Which of these worries you most?',
          choices: [
            { id: 'c1', extract: 'repeat of my inhaler' },
            { id: 'c2', extract: 'a rash on my arm' },
          ],
        }),
      },
    ],
  },
  {
    id: 'records',
    name: { given: 'Leon', family: 'Fischer' },
    tenant: 'harbour-health',
    steps: [
      {
        name: 'manual records step',
        queue: 'federated',
        type: 'robot-process-automation.manual-step.job',
        build: () => ({
          portal: 'https://emr.harbour-health.example/patients/leon-fischer',
          step: 'The robot could not attach the intake notes: attach them by hand.',
        }),
      },
    ],
  },
  // The exception desk (issue 5): patients the assistant hands over to a human.
  {
    id: 'ask-human',
    name: { given: 'Noah', family: 'Williams' },
    tenant: 'acme-clinic',
    handover: {
      atStep: 0,
      question: 'What brings you in today?',
      trigger: "I'd rather talk to a real person, please.",
      botSays: "Of course. I'm passing you to one of our clinicians; they will reply here shortly.",
      reason: 'The patient asked for a human',
      replies: [
        "It's a tight feeling in my chest since this morning. It comes and goes.",
        "It doesn't spread anywhere. I'm 54 and I take pills for blood pressure.",
      ],
      taskSlot: { code: 'chief_complaints', description: 'chief complaint' },
    },
    steps: [
      slotStep(
        'onset',
        { code: 'onset', description: 'onset' },
        (m) => `When did the ${complaint(m, 'chest tightness')} start?`,
        () => 'This morning, around seven, when I was walking the dog',
      ),
      slotStep(
        'associated symptoms',
        { code: 'associated_sx', description: 'associated symptoms', multiplicity: '0..*' },
        () => 'Have you noticed anything else, like shortness of breath or sweating?',
        () => 'A little short of breath when it happens',
      ),
    ],
  },
  {
    id: 'medication-question',
    name: { given: 'Lucía', family: 'Fernández' },
    tenant: 'harbour-health',
    handover: {
      atStep: 0,
      question: 'What brings you in today?',
      trigger: 'Can I take two more of my blood thinner tablets? I think I missed yesterday.',
      botSays: 'I cannot advise on medicine doses. A clinician will answer you here in a moment.',
      reason: 'The patient asked about a medicine dose',
      replies: [
        'It is warfarin, 5 mg in the evening. I missed last night and took today as usual.',
        'No bleeding or bruising. My next INR check is on Friday.',
      ],
      taskSlot: { code: 'chief_complaints', description: 'chief complaint' },
    },
    steps: [
      slotStep(
        'current complaint',
        { code: 'current_complaint', description: 'current complaint' },
        () => 'Is there anything else bothering you today?',
        () => 'Just some tiredness this week',
      ),
    ],
  },
  {
    id: 'off-script',
    name: { given: 'Ava', family: 'Thompson' },
    tenant: 'harbour-health',
    handover: {
      atStep: 1,
      question: 'When did the rash start?',
      trigger: 'My cat just knocked my tea over. Look, can you just book me in with a doctor?',
      botSays: "I'm sorry, I didn't follow that. A clinician will take it from here.",
      reason: 'The answer did not fit the question (off-script)',
      replies: [
        'Sorry! The rash started on Sunday, on both arms. It is itchy.',
        'No new soaps or foods that I know of.',
      ],
      taskSlot: { code: 'onset', description: 'onset' },
    },
    steps: [
      slotStep(
        'chief complaint',
        { code: 'chief_complaints', description: 'chief complaint', multiplicity: '1..*' },
        () => 'What brings you in today?',
        () => 'I have an itchy rash on my arms',
      ),
      slotStep(
        'associated symptoms',
        { code: 'associated_sx', description: 'associated symptoms', multiplicity: '0..*' },
        (m) => `Anything else along with the ${complaint(m, 'rash')}?`,
        () => 'My eyes are a bit puffy too',
      ),
    ],
  },
  {
    id: 'staff-member',
    name: { given: 'Rangi', family: 'Walker' },
    tenant: 'harbour-health',
    handover: {
      atStep: 0,
      question: 'What brings you in today?',
      trigger: 'I work at the clinic, so I would rather a senior clinician handled this privately.',
      botSays: 'Understood. I am passing you to a senior clinician now.',
      reason: 'The patient is a member of staff',
      queue: 'exceptions-restricted',
      replies: ['I have had a migraine for three days and the usual tablets are not working.'],
      taskSlot: { code: 'chief_complaints', description: 'chief complaint' },
    },
    steps: [],
  },
];
