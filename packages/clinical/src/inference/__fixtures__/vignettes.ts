/**
 * Clinical vignettes written for Loopdesk's differential quality test: a short story, the
 * observations a clinician would take from it (by KB name or alias; `deny` for findings the
 * patient denies) and the condition a clinician would put first. Written from general medical
 * knowledge, not read off the KB's edges. The last group is deliberately hard: few findings,
 * shared between several conditions, plus an incidental one.
 */

export interface Vignette {
  story: string;
  /** 'hard': a partial or atypical presentation with an incidental finding. */
  hard?: boolean;
  present: string[];
  absent?: string[];
  expected: string;
}

export const VIGNETTES: Vignette[] = [
  {
    story:
      'Young adult, two days of blocked runny nose, sneezing and a mild sore throat, no fever.',
    present: ['runny nose', 'nasal congestion', 'sneezing', 'sore throat'],
    absent: ['fever'],
    expected: 'LD:common-cold',
  },
  {
    story: 'Sudden high fever, aching all over, shivers and exhaustion in winter; dry cough.',
    present: ['fever', 'muscle aches', 'chills', 'fatigue', 'dry cough'],
    expected: 'LD:influenza',
  },
  {
    story: 'Fever, cough and new loss of smell after a sick contact.',
    present: ['fever', 'cough', 'loss of smell', 'sick contact'],
    expected: 'LD:covid-19',
  },
  {
    story: 'Ten days of chesty cough with phlegm after a cold, otherwise well, no fever.',
    present: ['productive cough', 'cough'],
    absent: ['fever', 'shortness of breath'],
    expected: 'LD:acute-bronchitis',
  },
  {
    story: 'Older smoker, fever, productive cough, breathless, sharp pain on breathing in.',
    present: [
      'fever',
      'productive cough',
      'shortness of breath',
      'pain on breathing in',
      'rapid breathing',
    ],
    expected: 'LD:pneumonia',
  },
  {
    story: 'Known atopic teenager, wheeze, tight chest and breathlessness worse at night.',
    present: [
      'wheezing',
      'chest tightness',
      'shortness of breath',
      'dry cough',
      'personal or family history of atopy',
    ],
    expected: 'LD:asthma',
  },
  {
    story: 'Long-term smoker over 60 with worsening breathlessness, wheeze and sputum.',
    present: [
      'current or former smoker',
      'breathless on exertion',
      'wheezing',
      'productive cough',
      'age over 50',
    ],
    expected: 'LD:copd',
  },
  {
    story: 'Toddler with a barking cough and noisy breathing in at night after a cold.',
    present: ['barking cough', 'stridor', 'runny nose'],
    expected: 'LD:croup',
  },
  {
    story: 'Sore throat, fever, swollen tonsils with pus, tender neck glands, no cough.',
    present: ['sore throat', 'fever', 'swollen tonsils with white patches', 'swollen lymph nodes'],
    absent: ['cough'],
    expected: 'LD:strep-throat',
  },
  {
    story: 'Student, two weeks of exhaustion, sore throat and swollen glands in the neck, fever.',
    present: ['fatigue', 'sore throat', 'swollen lymph nodes', 'fever'],
    expected: 'LD:glandular-fever',
  },
  {
    story: 'Blocked nose and facial pressure for ten days after a cold, lost sense of smell.',
    present: ['facial pain or sinus pressure', 'nasal congestion', 'loss of smell'],
    expected: 'LD:sinusitis',
  },
  {
    story: 'Every spring: itchy watery eyes, sneezing and runny nose, no fever.',
    present: ['itchy eyes', 'watery eyes', 'sneezing', 'runny nose'],
    absent: ['fever'],
    expected: 'LD:allergic-rhinitis',
  },
  {
    story: 'Child with earache, fever and tugging at the ear.',
    present: ['ear pain', 'fever', 'pulling at the ear'],
    expected: 'LD:otitis-media',
  },
  {
    story: 'After swimming, itchy painful ear with discharge.',
    present: ['ear pain', 'itchy ear', 'ear discharge'],
    expected: 'LD:otitis-externa',
  },
  {
    story: 'Red sticky eye, gritty, no pain or visual change.',
    present: ['red eye', 'eye discharge'],
    absent: ['blurred vision'],
    expected: 'LD:conjunctivitis',
  },
  {
    story: 'Woman with burning on passing urine, frequency and urgency, no fever.',
    present: ['painful urination', 'frequent urination', 'urgency to urinate', 'suprapubic pain'],
    absent: ['fever', 'flank pain'],
    expected: 'LD:uti',
  },
  {
    story: 'Fever, shivering, loin pain and burning urine.',
    present: ['fever', 'chills', 'flank pain', 'painful urination'],
    expected: 'LD:pyelonephritis',
  },
  {
    story: 'Waves of severe pain from loin to groin with blood in the urine, vomiting.',
    present: ['colicky pain from loin to groin', 'blood in the urine', 'flank pain', 'vomiting'],
    expected: 'LD:kidney-stone',
  },
  {
    story: 'Family with vomiting and watery diarrhoea since yesterday, crampy tummy.',
    present: ['vomiting', 'diarrhea', 'abdominal cramps', 'sick contact'],
    expected: 'LD:gastroenteritis',
  },
  {
    story: 'Burning behind the breastbone after meals and lying down, sour taste.',
    present: ['heartburn', 'acid regurgitation'],
    expected: 'LD:gord',
  },
  {
    story: 'Gnawing upper abdominal pain eased by food, black stools.',
    present: ['upper abdominal pain', 'indigestion', 'black tarry stools'],
    expected: 'LD:peptic-ulcer',
  },
  {
    story:
      'Pain started around the navel and moved to the right lower abdomen, off food, vomiting.',
    present: [
      'pain moving from the navel to the right lower abdomen',
      'right lower abdominal pain',
      'loss of appetite',
      'nausea',
      'guarding or rebound tenderness',
    ],
    expected: 'LD:appendicitis',
  },
  {
    story: 'Right upper abdominal pain after a fatty meal, fever, nausea.',
    present: ['right upper abdominal pain', 'pain after fatty meals', 'fever', 'nausea'],
    expected: 'LD:cholecystitis',
  },
  {
    story: 'Severe upper abdominal pain boring through to the back, vomiting.',
    present: ['upper abdominal pain', 'pain going through to the back', 'vomiting'],
    expected: 'LD:pancreatitis',
  },
  {
    story: 'Months of bloating and cramps relieved by opening the bowels, alternating habit.',
    present: [
      'bloating',
      'abdominal cramps',
      'pain eased by opening the bowels',
      'change in bowel habit',
    ],
    absent: ['weight loss', 'blood in the stool'],
    expected: 'LD:ibs',
  },
  {
    story: 'Older adult with left lower abdominal pain, fever and change in bowel habit.',
    present: ['left lower abdominal pain', 'fever', 'age over 50'],
    expected: 'LD:diverticulitis',
  },
  {
    story: 'Bright red blood on the paper, itchy bottom, a lump at the anus.',
    present: ['blood in the stool', 'anal itching', 'lump at the anus'],
    expected: 'LD:haemorrhoids',
  },
  {
    story: 'One-sided throbbing headache with zigzag lines before it, nausea, light hurts.',
    present: [
      'throbbing headache',
      'visual aura',
      'nausea',
      'sensitivity to light',
      'sensitivity to noise',
    ],
    expected: 'LD:migraine',
  },
  {
    story: 'Band-like headache at the end of stressful days, no nausea.',
    present: ['tight band-like headache', 'headache'],
    absent: ['nausea', 'sensitivity to light'],
    expected: 'LD:tension-headache',
  },
  {
    story: 'Fever, headache, stiff neck and a rash that does not fade under a glass.',
    present: ['fever', 'headache', 'neck stiffness', 'non-blanching rash', 'sensitivity to light'],
    expected: 'LD:meningitis',
  },
  {
    story: 'Sudden face droop, arm weakness and slurred speech.',
    present: ['facial droop', 'weakness on one side of the body', 'slurred speech'],
    expected: 'LD:stroke',
  },
  {
    story: 'Head knock playing rugby, headache, dizzy and muddled since.',
    present: ['recent head injury', 'headache', 'dizziness', 'confusion'],
    expected: 'LD:concussion',
  },
  {
    story: 'Brief spinning when rolling over in bed or looking up.',
    present: ['dizziness on turning the head', 'vertigo', 'nausea'],
    absent: ['reduced hearing'],
    expected: 'LD:bppv',
  },
  {
    story: 'Crushing central chest pain spreading to the left arm, sweaty and sick.',
    present: [
      'crushing chest pain',
      'pain spreading to the arm or jaw',
      'sweating',
      'nausea',
      'shortness of breath',
    ],
    expected: 'LD:heart-attack',
  },
  {
    story: 'Chest tightness only when climbing stairs, settles with rest.',
    present: ['chest pain on exertion', 'chest tightness'],
    expected: 'LD:angina',
  },
  {
    story: 'After a long-haul flight: sudden breathlessness, sharp pain on breathing, fast pulse.',
    present: [
      'shortness of breath',
      'pain on breathing in',
      'fast heart rate',
      'recent immobility, surgery or long-haul flight',
      'coughing up blood',
    ],
    expected: 'LD:pulmonary-embolism',
  },
  {
    story: 'One swollen, painful calf after a leg in plaster.',
    present: ['swelling of one leg', 'calf pain', 'recent immobility, surgery or long-haul flight'],
    absent: ['shortness of breath'],
    expected: 'LD:dvt',
  },
  {
    story: 'Swollen ankles, breathless lying flat and on exertion, tired.',
    present: [
      'swollen ankles and legs',
      'breathless lying flat',
      'breathless on exertion',
      'fatigue',
    ],
    expected: 'LD:heart-failure',
  },
  {
    story: 'Irregular fluttering heartbeat with breathlessness and dizziness.',
    present: ['palpitations', 'irregular pulse', 'dizziness'],
    expected: 'LD:atrial-fibrillation',
  },
  {
    story: 'Thirsty, passing lots of urine, tired and losing weight.',
    present: ['excessive thirst', 'passing large amounts of urine', 'fatigue', 'blurred vision'],
    expected: 'LD:type-2-diabetes',
  },
  {
    story: 'Diabetic with vomiting, tummy pain, fruity breath, fast breathing, drowsy.',
    present: [
      'sweet-smelling breath',
      'vomiting',
      'abdominal pain',
      'rapid breathing',
      'drowsiness',
      'excessive thirst',
    ],
    expected: 'LD:dka',
  },
  {
    story: 'Diabetic on insulin, suddenly shaky, sweaty and confused.',
    present: ['tremor', 'sweating', 'confusion'],
    expected: 'LD:hypoglycaemia',
  },
  {
    story: 'Always cold, tired, weight gain, dry skin and hair thinning.',
    present: ['feeling cold all the time', 'weight gain', 'dry skin', 'hair loss', 'fatigue'],
    expected: 'LD:hypothyroidism',
  },
  {
    story: 'Pale, tired and breathless on exertion with heavy periods.',
    present: ['pallor', 'fatigue', 'breathless on exertion'],
    expected: 'LD:iron-deficiency-anaemia',
  },
  {
    story: 'Spreading red, hot, swollen, tender skin on the shin around a graze, fever.',
    present: [
      'skin redness',
      'skin warm to the touch',
      'swelling of the skin',
      'skin tenderness',
      'break in the skin',
      'fever',
    ],
    expected: 'LD:cellulitis',
  },
  {
    story: 'Itchy red rash where a new watch strap touches the skin.',
    present: ['rash', 'itching', 'exposure to a known allergen'],
    expected: 'LD:contact-dermatitis',
  },
  {
    story: 'Itchy raised wheals that come and go over hours.',
    present: ['hives', 'itching'],
    absent: ['swelling of the lips, tongue or face'],
    expected: 'LD:urticaria',
  },
  {
    story: 'Minutes after a wasp sting: swollen lips, wheeze, faint, hives.',
    present: [
      'exposure to a known allergen',
      'swelling of the lips, tongue or face',
      'wheezing',
      'low blood pressure',
      'hives',
    ],
    expected: 'LD:anaphylaxis',
  },
  {
    story: 'Burning pain then a band of blisters on one side of the chest.',
    present: ['band-like blistering rash on one side', 'burning or tingling skin pain', 'blisters'],
    expected: 'LD:shingles',
  },
  {
    story: 'Child with fever and itchy blisters spreading over the body.',
    present: ['blisters', 'itching', 'fever', 'rash'],
    expected: 'LD:chickenpox',
  },
  {
    story: 'Golden crusted sores around a child’s mouth.',
    present: ['honey-coloured crusts', 'rash'],
    expected: 'LD:impetigo',
  },
  {
    story: 'Intense itch worse at night, whole family itching.',
    present: ['itching worse at night', 'itching', 'rash'],
    expected: 'LD:scabies',
  },
  {
    story: 'Back pain after lifting, no leg symptoms.',
    present: ['lower back pain'],
    absent: ['pain shooting down the leg', 'numbness'],
    expected: 'LD:mechanical-back-pain',
  },
  {
    story: 'Shooting pain down the back of the leg with tingling in the foot.',
    present: ['pain shooting down the leg', 'pins and needles', 'lower back pain'],
    expected: 'LD:sciatica',
  },
  {
    story: 'Overnight, a red hot swollen big toe, agony to touch.',
    present: ['pain in the big toe', 'red hot swollen joint'],
    expected: 'LD:gout',
  },
  {
    story: 'Rolled ankle playing football, swollen and painful, can walk with a limp.',
    present: ['recent twisting injury of the ankle', 'joint swelling'],
    expected: 'LD:ankle-sprain',
  },
  {
    story: 'Constant worry about everything for months, on edge, poor sleep.',
    present: ['excessive worry', 'anxiety', 'difficulty sleeping', 'irritability'],
    expected: 'LD:anxiety-disorder',
  },
  {
    story: 'Sudden racing heart, breathlessness and a sense of doom that peaks in minutes.',
    present: ['palpitations', 'sense of impending doom', 'shortness of breath', 'tingling'],
    expected: 'LD:panic-attack',
  },
  {
    story: 'Low mood, no enjoyment in anything, poor sleep and concentration for weeks.',
    present: [
      'low mood',
      'loss of interest or pleasure',
      'difficulty sleeping',
      'difficulty concentrating',
    ],
    expected: 'LD:depression',
  },
  {
    story: 'Vaginal itching and thick white discharge after antibiotics.',
    present: ['vaginal itching', 'vaginal discharge'],
    expected: 'LD:thrush',
  },
  {
    story: 'Missed period, one-sided pelvic pain and spotting.',
    present: ['missed period', 'pelvic pain', 'vaginal bleeding', 'possible pregnancy'],
    expected: 'LD:ectopic-pregnancy',
  },
  {
    story: 'Cough and fever only, a smoker.',
    hard: true,
    present: ['cough', 'fever', 'current or former smoker'],
    expected: 'LD:pneumonia',
  },
  {
    story: 'Sore throat and fever, also a runny nose.',
    hard: true,
    present: ['sore throat', 'fever', 'runny nose'],
    expected: 'LD:common-cold',
  },
  {
    story: 'Breathless and wheezy, coughing, no fever, tired.',
    hard: true,
    present: ['shortness of breath', 'wheezing', 'cough', 'fatigue'],
    absent: ['fever'],
    expected: 'LD:asthma',
  },
  {
    story: 'Chest pain and breathlessness, sweating, back pain.',
    hard: true,
    present: ['chest pain', 'shortness of breath', 'sweating', 'back pain'],
    expected: 'LD:heart-attack',
  },
  {
    story: 'Headache and vomiting, neck stiffness, no rash.',
    hard: true,
    present: ['headache', 'vomiting', 'neck stiffness'],
    absent: ['non-blanching rash'],
    expected: 'LD:meningitis',
  },
  {
    story: 'Tummy pain and diarrhoea with a temperature, headache.',
    hard: true,
    present: ['abdominal pain', 'diarrhea', 'fever', 'headache'],
    expected: 'LD:gastroenteritis',
  },
  {
    story: 'Dizzy and sick, ringing in the ears.',
    hard: true,
    present: ['dizziness', 'nausea', 'ringing in the ears', 'vertigo'],
    // Was BPPV while the KB had no Ménière's disease; tinnitus with vertigo points to Ménière's.
    expected: 'LD:menieres-disease',
  },
  {
    story: 'Frequent urination, thirsty, blurred vision, itchy vaginal area.',
    hard: true,
    present: ['frequent urination', 'excessive thirst', 'blurred vision', 'vaginal itching'],
    expected: 'LD:type-2-diabetes',
  },
  {
    story: 'Palpitations and anxiety, sweating, tremor.',
    hard: true,
    present: ['palpitations', 'anxiety', 'sweating', 'tremor', 'sense of impending doom'],
    expected: 'LD:panic-attack',
  },
  {
    story: 'Leg swelling both sides and tiredness, breathless walking.',
    hard: true,
    present: ['swollen ankles and legs', 'fatigue', 'breathless on exertion'],
    expected: 'LD:heart-failure',
  },
  {
    story: 'Itchy rash with dry skin, history of hay fever.',
    hard: true,
    present: ['itching', 'rash', 'dry skin', 'personal or family history of atopy'],
    expected: 'LD:eczema',
  },
  {
    story: 'Joint pains and morning stiffness, older adult.',
    hard: true,
    present: ['joint pain', 'joint stiffness in the morning', 'age over 50'],
    expected: 'LD:osteoarthritis',
  },
  {
    story: 'Vomiting, dry mouth, passing little urine, dizzy.',
    hard: true,
    present: ['vomiting', 'dry mouth', 'reduced urine output', 'dizziness'],
    expected: 'LD:dehydration',
  },
  {
    story: 'Fever, fast heart rate, confusion and fast breathing.',
    hard: true,
    present: ['fever', 'fast heart rate', 'confusion', 'rapid breathing', 'low blood pressure'],
    expected: 'LD:sepsis',
  },
  {
    story: 'Upper abdominal pain and nausea after drinking, back pain.',
    hard: true,
    present: ['upper abdominal pain', 'nausea', 'back pain'],
    expected: 'LD:pancreatitis',
  },
  // Second edition: vignettes for the conditions added with it, written before running them.
  {
    story: 'Sudden sharp one-sided chest pain and breathlessness in a tall thin young smoker.',
    present: [
      'sudden shortness of breath',
      'sharp pain on one side of the chest',
      'tall thin build',
      'current or former smoker',
    ],
    expected: 'LD:pneumothorax',
  },
  {
    story:
      'Child with high fever, drooling, muffled voice and noisy breathing in, sitting forward.',
    present: ['high fever', 'drooling', 'muffled voice', 'stridor', 'sitting forward to breathe'],
    expected: 'LD:epiglottitis',
  },
  {
    story: 'Severe sore throat worse on one side, cannot open mouth fully, hot potato voice.',
    present: [
      'severe sore throat on one side',
      'difficulty opening the mouth',
      'muffled voice',
      'fever',
    ],
    expected: 'LD:peritonsillar-abscess',
  },
  {
    story: 'Weeks of cough, night sweats and weight loss after living with someone with TB.',
    present: [
      'cough for more than three weeks',
      'night sweats',
      'weight loss',
      'contact with tuberculosis',
    ],
    expected: 'LD:tuberculosis',
  },
  {
    story: 'Loud snoring, partner sees pauses in breathing, sleepy all day, overweight.',
    present: [
      'loud snoring',
      'stops breathing during sleep',
      'excessive daytime sleepiness',
      'obesity',
    ],
    expected: 'LD:obstructive-sleep-apnoea',
  },
  {
    story: 'Older man, painful red eye, haloes around lights, blurred vision and vomiting.',
    present: ['eye pain', 'red eye', 'haloes around lights', 'blurred vision', 'vomiting'],
    expected: 'LD:angle-closure-glaucoma',
  },
  {
    story: 'Sudden shower of floaters and flashes, then a shadow over part of the vision.',
    present: ['floaters', 'flashing lights in the vision', 'shadow or curtain over the vision'],
    expected: 'LD:retinal-detachment',
  },
  {
    story: 'Attacks of vertigo for hours with roaring tinnitus and muffled hearing in one ear.',
    present: [
      'vertigo attacks lasting hours',
      'ringing in the ears',
      'hearing loss in one ear',
      'fullness in the ear',
    ],
    expected: 'LD:menieres-disease',
  },
  {
    story: 'Muffled hearing and a blocked ear, uses cotton buds, no pain or fever.',
    present: ['reduced hearing', 'fullness in the ear', 'uses cotton buds in the ears'],
    absent: ['fever', 'ear pain'],
    expected: 'LD:earwax',
  },
  {
    story: 'Toothache, swollen cheek and a bad taste from the gum.',
    present: ['toothache', 'swollen jaw or cheek', 'pus from the gum'],
    expected: 'LD:dental-abscess',
  },
  {
    story: 'Young adult with weeks of bloody diarrhoea with mucus and urgency.',
    present: [
      'bloody diarrhea',
      'mucus in the stool',
      'feeling of incomplete emptying',
      'diarrhoea for more than four weeks',
    ],
    expected: 'LD:ulcerative-colitis',
  },
  {
    story: 'Colicky pain, swollen tummy, vomiting and no wind for a day, previous surgery.',
    present: [
      'colicky abdominal pain',
      'swollen distended abdomen',
      'vomiting',
      'unable to pass wind or stool',
      'previous abdominal surgery',
    ],
    expected: 'LD:bowel-obstruction',
  },
  {
    story: 'Tearing pain on opening the bowels with bright red blood on the paper.',
    present: ['sharp pain passing stools', 'bright red blood on wiping', 'constipation'],
    expected: 'LD:anal-fissure',
  },
  {
    story: 'Bloating, wind and loose stools every time milk is drunk.',
    present: ['symptoms after milk or dairy', 'bloating', 'excessive wind', 'diarrhea'],
    expected: 'LD:lactose-intolerance',
  },
  {
    story: 'Vomiting blood and black stools in a heavy drinker who takes ibuprofen, feels faint.',
    present: [
      'vomiting blood',
      'black tarry stools',
      'heavy alcohol use',
      'regular anti-inflammatory painkillers',
      'feeling faint on standing',
    ],
    expected: 'LD:upper-gi-bleed',
  },
  {
    story: 'Witnessed fit with jerking limbs and a bitten tongue, drowsy afterwards.',
    present: [
      'seizure',
      'jerking of the limbs',
      'bitten tongue',
      'drowsy and confused after the episode',
    ],
    expected: 'LD:epilepsy',
  },
  {
    story: 'Stabbing pain behind one eye every night at the same time, watery eye, restless.',
    present: [
      'severe pain around one eye',
      'headache attacks at the same time each day',
      'watery eyes',
      'restlessness',
    ],
    expected: 'LD:cluster-headache',
  },
  {
    story: 'Face dropped on one side overnight, cannot close the eye, no arm weakness.',
    present: ['weakness of one side of the face', 'facial droop'],
    absent: ['weakness on one side of the body', 'slurred speech'],
    expected: 'LD:bells-palsy',
  },
  {
    story: 'Numb tingling fingers at night and dropping things, works at a keyboard.',
    present: [
      'numb hand at night',
      'tingling in the thumb and fingers',
      'weak grip',
      'repetitive strain from work or sport',
    ],
    expected: 'LD:carpal-tunnel',
  },
  {
    story: 'Seventy-five year old with new headache, tender scalp and jaw pain when chewing.',
    present: ['headache', 'tender temples', 'jaw pain when chewing', 'age over 65'],
    expected: 'LD:giant-cell-arteritis',
  },
  {
    story: 'Tremor at rest, slow movements and a shuffling walk.',
    present: ['tremor at rest', 'slowness of movement', 'shuffling walk', 'muscle stiffness'],
    expected: 'LD:parkinsons-disease',
  },
  {
    story: 'Tearing chest pain through to the back, different blood pressure in each arm.',
    present: [
      'tearing chest pain going to the back',
      'different blood pressure in each arm',
      'sweating',
    ],
    expected: 'LD:aortic-dissection',
  },
  {
    story: 'Racing regular heartbeat that starts and stops suddenly, otherwise well.',
    present: ['palpitations that start and stop suddenly', 'very fast regular pulse'],
    expected: 'LD:svt',
  },
  {
    story: 'Calf pain walking that eases with rest, cold feet, long-term smoker.',
    present: [
      'calf pain on walking relieved by rest',
      'cold pale feet',
      'current or former smoker',
    ],
    expected: 'LD:peripheral-arterial-disease',
  },
  {
    story: 'Weight loss despite eating more, heat intolerance, tremor and palpitations.',
    present: [
      'weight loss',
      'increased appetite',
      'heat intolerance',
      'fine tremor of the hands',
      'palpitations',
    ],
    expected: 'LD:hyperthyroidism',
  },
  {
    story: 'Older man, weak stream, hesitancy and up at night to pass urine.',
    present: [
      'weak urine stream',
      'difficulty starting to urinate',
      'getting up at night to pass urine',
      'man over 50',
    ],
    expected: 'LD:bph',
  },
  {
    story: 'Teenage boy woke with sudden severe testicular pain and vomiting.',
    present: [
      'sudden severe testicular pain',
      'testicular pain',
      'vomiting',
      'child or young adult',
    ],
    expected: 'LD:testicular-torsion',
  },
  {
    story: 'Thin grey fishy-smelling discharge, no itch.',
    present: ['fishy-smelling discharge', 'vaginal discharge'],
    absent: ['vaginal itching'],
    expected: 'LD:bacterial-vaginosis',
  },
  {
    story: 'Breastfeeding mother with a red hot painful area of the breast and fever.',
    present: ['red hot area on the breast', 'breast pain', 'breastfeeding', 'fever'],
    expected: 'LD:mastitis',
  },
  {
    story: '34 weeks pregnant with headache, flashing lights and swollen face and hands.',
    present: [
      'pregnant over 20 weeks',
      'headache',
      'visual disturbance in pregnancy',
      'sudden swelling of face and hands',
    ],
    expected: 'LD:pre-eclampsia',
  },
  {
    story: 'Older woman fell, cannot stand, leg shortened and turned out.',
    present: [
      'recent fall',
      'hip pain',
      'unable to bear weight',
      'leg shortened and turned out',
      'age over 65',
    ],
    expected: 'LD:hip-fracture',
  },
  {
    story: 'Felt a snap at the back of the ankle playing squash, cannot stand on tiptoe.',
    present: [
      'felt a snap at the back of the ankle',
      'unable to stand on tiptoe',
      'injury during sport',
    ],
    expected: 'LD:achilles-rupture',
  },
  {
    story: 'Hot swollen knee, cannot move it, with a high temperature.',
    present: [
      'single hot swollen joint with fever',
      'cannot move the joint',
      'fever',
      'joint swelling',
    ],
    expected: 'LD:septic-arthritis',
  },
  {
    story: 'Over 65 with stiff aching shoulders and hips every morning for weeks.',
    present: [
      'aching and stiffness of shoulders and hips',
      'morning stiffness lasting over an hour',
      'age over 65',
    ],
    expected: 'LD:polymyalgia-rheumatica',
  },
  {
    story: 'Expanding red ring rash after a tick bite while hiking, tired and achy.',
    present: ["bull's-eye rash", 'tick bite', 'walking in woods or long grass', 'fatigue'],
    expected: 'LD:lyme-disease',
  },
  {
    story: 'Fever with shaking chills two weeks after returning from West Africa.',
    present: ['fever', 'chills', 'travel to a malaria area', 'headache'],
    expected: 'LD:malaria',
  },
  {
    story: 'Whole household has headaches and nausea, better away from home, old boiler.',
    present: [
      'others in the house have the same symptoms',
      'headache',
      'nausea',
      'feels better away from home',
      'faulty boiler or fuel-burning heater',
    ],
    expected: 'LD:carbon-monoxide-poisoning',
  },
  {
    story: 'Elated, needing little sleep, racing thoughts and spending sprees.',
    present: [
      'very high or elated mood',
      'needing very little sleep',
      'racing thoughts',
      'reckless spending or risk-taking',
    ],
    expected: 'LD:bipolar-disorder',
  },
  {
    story: 'Hard: red itchy eyelid margins with crusting and a gritty feeling.',
    hard: true,
    present: ['crusty red eyelids', 'itchy eyes'],
    expected: 'LD:blepharitis',
  },
  {
    story: 'Hard: sore heel in the morning in a runner.',
    hard: true,
    present: ['heel pain', 'sudden increase in exercise'],
    expected: 'LD:plantar-fasciitis',
  },
  {
    story: 'Hard: itchy scalp in a school child.',
    hard: true,
    present: ['itchy scalp', 'attends nursery or school'],
    expected: 'LD:head-lice',
  },
  {
    story: 'Hard: sudden worst-ever headache during exercise, then vomiting.',
    hard: true,
    present: ['sudden severe headache', 'vomiting with a headache'],
    expected: 'LD:subarachnoid-haemorrhage',
  },
  {
    story: 'Hard: heavy periods and tiredness.',
    hard: true,
    present: ['heavy periods', 'fatigue', 'pallor'],
    expected: 'LD:iron-deficiency-anaemia',
  },
];

/**
 * Presentations in a patient's broad words: what 'tummy ache', 'chest pain' or 'back pain'
 * normalise to, not the specific finding a clinician would record ('right lower abdominal pain').
 * `expected` lists the conditions a clinician would accept at the top (by canonical name); the
 * test counts a hit when one of them is first (top-1) or among the first three (top-3).
 */
export interface LayVignette {
  present: string[];
  expected: string[];
}

export const LAY_VIGNETTES: LayVignette[] = [
  {
    present: ['tummy ache', 'throwing up', 'fever'],
    expected: ['gastroenteritis', 'appendicitis'],
  },
  {
    present: ['tummy ache', 'throwing up', 'off my food', 'fever'],
    expected: ['appendicitis', 'gastroenteritis'],
  },
  { present: ['tummy ache', 'the runs', 'throwing up'], expected: ['gastroenteritis'] },
  {
    present: ['tummy ache', 'fever', 'nausea', 'pain after fatty meals'],
    expected: ['cholecystitis', 'biliary colic'],
  },
  {
    present: ['tummy ache', 'heartburn'],
    expected: ['gastro-oesophageal reflux disease', 'gastritis', 'peptic ulcer disease'],
  },
  {
    present: ['tummy ache', 'burning when I pee', 'peeing a lot'],
    expected: ['urinary tract infection'],
  },
  {
    present: ['tummy ache', 'missed period', 'vaginal bleeding'],
    expected: ['ectopic pregnancy', 'miscarriage'],
  },
  {
    present: ['chest pain', 'shortness of breath', 'sweating'],
    expected: ['myocardial infarction', 'angina pectoris'],
  },
  {
    present: ['chest pain', 'shortness of breath', 'swelling of one leg'],
    expected: ['pulmonary embolism'],
  },
  { present: ['chest pain', 'shortness of breath', 'fever', 'cough'], expected: ['pneumonia'] },
  { present: ['headache', 'fever', 'stiff neck'], expected: ['meningitis'] },
  { present: ['headache', 'sensitivity to light', 'nausea'], expected: ['migraine'] },
  {
    present: ['back pain', 'fever', 'burning when I pee'],
    expected: ['pyelonephritis', 'acute prostatitis'],
  },
  { present: ['cough', 'fever', "can't catch my breath"], expected: ['pneumonia', 'COVID-19'] },
  { present: ['rash', 'fever', 'itching'], expected: ['chickenpox'] },
  {
    present: ['rash', 'itching'],
    expected: ['contact dermatitis', 'atopic dermatitis', 'urticaria', 'scabies'],
  },
  { present: ['the runs', 'throwing up'], expected: ['gastroenteritis'] },
  {
    present: ['dizziness', 'nausea', 'throwing up'],
    expected: ['vestibular neuritis or labyrinthitis', 'benign paroxysmal positional vertigo'],
  },
  { present: ['joint pain', 'fever'], expected: ['septic arthritis'] },
  { present: ['vaginal discharge', 'vaginal itching'], expected: ['vulvovaginal candidiasis'] },
];
